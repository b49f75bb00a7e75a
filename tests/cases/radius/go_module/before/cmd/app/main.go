package main

import "example.com/app/api"

func main() { api.Serve() }
