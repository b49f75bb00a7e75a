package main

import s "example.com/app/internal/store"

func main() { s.Get() }
