pub struct Token;
