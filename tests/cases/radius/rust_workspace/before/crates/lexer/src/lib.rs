pub mod token;
#[cfg(unix)]
#[path = "sys/unix_impl.rs"]
mod sys;
