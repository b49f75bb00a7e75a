mod args;
use acme_parser::parse;
use acme_lexer::token::Token;
fn main() { parse(Token); }
