package edgeclient

import (
	"context"
	"errors"
	"iter"
)

// DefaultPageSize is the page size of the iterators when the parameters
// name no limit.
const DefaultPageSize = 100

// Page is one page of a paged list: its items, and the number of items of
// the whole list, or -1 when the list does not say.
type Page[T any] struct {
	Items []T
	Total int
}

// Pages iterates over every item of a paged list, fetching pages of limit
// items from skip on as the loop advances. It stops after the last page: at
// Total items when the pages tell it, else at the first page shorter than
// limit. An error is yielded once, last. Items added to the list while it
// is walked may shift pages: a list read newest first (audit, tasks) can
// then yield an item twice.
func Pages[T any](ctx context.Context, limit, skip int, fetch func(ctx context.Context, limit, skip int) (Page[T], error)) iter.Seq2[T, error] {
	if limit <= 0 {
		limit = DefaultPageSize
	}
	return func(yield func(T, error) bool) {
		for {
			page, err := fetch(ctx, limit, skip)
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			for _, item := range page.Items {
				if !yield(item, nil) {
					return
				}
			}
			skip += len(page.Items)
			if len(page.Items) < limit || len(page.Items) == 0 || (page.Total >= 0 && skip >= page.Total) {
				return
			}
		}
	}
}

// errNoBody is returned when a 2xx answer had no JSON body.
var errNoBody = errors.New("edged: the answer had no JSON body")

// AuditEntries iterates over the audit entries matching params, newest
// first, every page of them: params.Limit is the page size
// (DefaultPageSize without it), params.Skip where to start.
//
//	for e, err := range c.AuditEntries(ctx, edgeclient.ListAuditEntriesParams{Source: edgeclient.Ptr(edgeclient.CONAD)}) {
//		if err != nil { return err }
//		fmt.Println(e.Timestamp, e.Details)
//	}
func (c *Client) AuditEntries(ctx context.Context, params ListAuditEntriesParams) iter.Seq2[AuditEntry, error] {
	return Pages(ctx, deref(params.Limit), deref(params.Skip), func(ctx context.Context, limit, skip int) (Page[AuditEntry], error) {
		p := params
		p.Limit, p.Skip = &limit, &skip
		resp, err := c.ListAuditEntriesWithResponse(ctx, &p)
		if err != nil {
			return Page[AuditEntry]{}, err
		}
		if resp.JSON200 == nil {
			return Page[AuditEntry]{}, errNoBody
		}
		return Page[AuditEntry]{Items: resp.JSON200.Audit, Total: int(resp.JSON200.TotalCount)}, nil
	})
}

// Tasks iterates over the tasks matching params, newest first, every page
// of them: params.Limit is the page size (DefaultPageSize without it),
// params.Skip where to start.
func (c *Client) Tasks(ctx context.Context, params ListTasksParams) iter.Seq2[Task, error] {
	return Pages(ctx, deref(params.Limit), deref(params.Skip), func(ctx context.Context, limit, skip int) (Page[Task], error) {
		p := params
		p.Limit, p.Skip = &limit, &skip
		resp, err := c.ListTasksWithResponse(ctx, &p)
		if err != nil {
			return Page[Task]{}, err
		}
		if resp.JSON200 == nil {
			return Page[Task]{}, errNoBody
		}
		return Page[Task]{Items: resp.JSON200.Tasks, Total: -1}, nil
	})
}

func deref[T any](p *T) T {
	var v T
	if p != nil {
		v = *p
	}
	return v
}
