package edgeclient

// Ptr returns a pointer to v, for the optional fields and parameters of the
// generated types: ListAuditEntriesParams{Limit: edgeclient.Ptr(50)}.
func Ptr[T any](v T) *T { return &v }
