use crate::lexer::{lex, Token};

pub fn parse() -> Vec<Token> { lex() }
