package edgeclient

import (
	"encoding/json"
	"fmt"
)

// Ptr returns a pointer to v, for the optional fields and parameters of the
// generated types: ListAuditEntriesParams{Limit: edgeclient.Ptr(50)}.
func Ptr[T any](v T) *T { return &v }

// Union returns the value of the generated oneOf type U holding v, one of
// its variants, so that a body needs no FromXxx call and no error check of
// its own:
//
//	body, err := edgeclient.Union[edgeclient.ServiceRequest](edgeclient.ServiceCreateRequest{…})
func Union[U any, V any](v V) (U, error) {
	var u U
	b, err := json.Marshal(v)
	if err != nil {
		return u, fmt.Errorf("edged: encode %T: %w", v, err)
	}
	if err := json.Unmarshal(b, &u); err != nil {
		return u, fmt.Errorf("edged: %T as %T: %w", v, u, err)
	}
	return u, nil
}
