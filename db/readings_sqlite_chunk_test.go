package db

import "testing"

// TestSQLiteInsertChunks checks that the INSERT plan of every batch size
// covers the batch exactly, in statements no larger than the largest, and
// that the sizes it prepares stay few.
func TestSQLiteInsertChunks(t *testing.T) {
	sizes := map[int]bool{}
	for n := 1; n <= 3*sqliteInsertMaxRows+50; n++ {
		left, stmts := n, 0
		for left > 0 {
			c := sqliteInsertChunk(left)
			if c < 1 || c > left || c > sqliteInsertMaxRows {
				t.Fatalf("batch of %d: a statement of %d rows with %d left", n, c, left)
			}
			sizes[c] = true
			left -= c
			stmts++
		}
		if rest := n % sqliteInsertMaxRows; stmts > n/sqliteInsertMaxRows+5 || rest >= sqliteInsertStep && rest%sqliteInsertStep == 0 && stmts != n/sqliteInsertMaxRows+1 {
			t.Errorf("batch of %d takes %d statements", n, stmts)
		}
	}
	if want := sqliteInsertMaxRows/sqliteInsertStep + 4; len(sizes) != want {
		t.Errorf("%d statement sizes are prepared, want %d", len(sizes), want)
	}
}
