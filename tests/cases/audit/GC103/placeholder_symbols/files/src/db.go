package db

func (db *DB) SurfacedChecks() []string { return nil }
func (db *DB) WithDirectory(path string) *DB { return db }
