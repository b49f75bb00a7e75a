pub struct Token;

impl Token {
    pub fn new() -> Self { Token }
}
