package db

import "context"

// Settings returns the value query (one text column, one row) reads on the
// write pool and on the read pool. Tests only.
func (d *DB) Settings(ctx context.Context, query string) (write, read string, err error) {
	if err := d.w.GetContext(ctx, &write, query); err != nil {
		return "", "", err
	}
	if err := d.r.GetContext(ctx, &read, query); err != nil {
		return "", "", err
	}
	return write, read, nil
}
