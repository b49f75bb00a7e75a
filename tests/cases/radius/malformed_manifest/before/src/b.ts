import { a } from './a';
import { c } from '@/c';
export const b = a;
