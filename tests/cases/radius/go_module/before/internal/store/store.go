package store

func Get() string { return "x" }
