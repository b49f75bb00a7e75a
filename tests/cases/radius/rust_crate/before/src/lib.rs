pub mod lexer;
pub mod parser;
mod eval;

pub fn run() {}
