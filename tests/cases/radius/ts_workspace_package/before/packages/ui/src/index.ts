export { Button } from './button';
