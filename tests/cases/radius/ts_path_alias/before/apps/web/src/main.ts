import { page } from './page';
import { format } from '@core';
console.log(page, format(2));
