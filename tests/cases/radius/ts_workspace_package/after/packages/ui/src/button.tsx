export const Button = () => 'button';
export const Big = () => 'big';
