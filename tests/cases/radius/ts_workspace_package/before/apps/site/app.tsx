import { Button } from '@acme/ui/button';
export const App = Button;
