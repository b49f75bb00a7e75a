import { format } from '@core/format';
export const page = format(1);
