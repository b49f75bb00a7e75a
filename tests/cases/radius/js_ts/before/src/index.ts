import { add } from './util';
export { Button } from './components/Button';
export const two = add(1, 1);
