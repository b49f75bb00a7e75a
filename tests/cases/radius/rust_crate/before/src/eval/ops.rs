use self::inner as _x;
pub fn add() {}
mod inner {}
