import { fetchUser } from './api';
export const page = fetchUser;
