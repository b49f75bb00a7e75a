package store

var cache = map[string]string{}
