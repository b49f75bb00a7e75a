package api

import (
	"fmt"
	"example.com/app/internal/store"
)

func Serve() { fmt.Println(store.Get()) }
