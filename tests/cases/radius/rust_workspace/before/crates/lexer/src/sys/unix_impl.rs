use crate::token::Token;
pub fn raw() -> Option<Token> { None }
