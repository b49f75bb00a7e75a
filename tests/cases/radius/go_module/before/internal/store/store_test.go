package store

import "testing"

func TestGet(t *testing.T) {}
