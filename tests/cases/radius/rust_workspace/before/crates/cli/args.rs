use crate::main_helper;
