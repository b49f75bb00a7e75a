import { Button } from '@acme/ui';
import { App } from './app';
export const Home = [Button, App];
