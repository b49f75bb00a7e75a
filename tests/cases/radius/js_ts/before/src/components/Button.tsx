import { add } from '../util.js';
export const Button = () => <button>{add(1, 2)}</button>;
