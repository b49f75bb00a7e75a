use lexer::token::Token;
pub fn parse(_: Token) {}
