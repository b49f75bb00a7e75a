use super::parser::parse;
use std::fmt;
mod ops;

pub fn eval() { parse(); }
