package impl

import (
	"context"

	"github.com/edged/edged/gen"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/fault"
)

// ListCategories lists the configuration categories, sorted by key: all,
// or with root=true the roots of the category tree, with root=false the
// categories that have a parent.
func (s *Server) ListCategories(ctx context.Context, req gen.ListCategoriesRequestObject) (gen.ListCategoriesResponseObject, error) {
	var (
		cats []configmgr.Category
		err  error
	)
	if req.Params.Root != nil {
		cats, err = s.config.TreeCategories(ctx, *req.Params.Root)
	} else {
		cats, err = s.config.Categories(ctx)
	}
	if err != nil {
		return nil, err
	}
	return gen.ListCategories200JSONResponse(categoryList(cats)), nil
}

// categoryList converts categories to the wire's category list.
func categoryList(cats []configmgr.Category) gen.CategoryList {
	out := gen.CategoryList{Categories: make([]gen.CategorySummary, 0, len(cats))}
	for _, c := range cats {
		out.Categories = append(out.Categories, categorySummary(c))
	}
	return out
}

// categorySummary converts a category to its entry in a category list.
func categorySummary(c configmgr.Category) gen.CategorySummary {
	return gen.CategorySummary{Key: c.Key, Description: c.Description, DisplayName: optional(c.DisplayName)}
}

// GetCategory returns a category's items keyed by name.
func (s *Server) GetCategory(ctx context.Context, req gen.GetCategoryRequestObject) (gen.GetCategoryResponseObject, error) {
	c, err := s.config.Category(ctx, req.Name)
	if err != nil {
		return nil, err
	}
	return gen.GetCategory200JSONResponse(itemsOut(c.Items)), nil
}

// GetCategoryItem returns one item.
func (s *Server) GetCategoryItem(ctx context.Context, req gen.GetCategoryItemRequestObject) (gen.GetCategoryItemResponseObject, error) {
	it, err := s.config.Item(ctx, req.Name, req.Item)
	if err != nil {
		return nil, err
	}
	return gen.GetCategoryItem200JSONResponse(itemOut(it)), nil
}

// SetCategoryItem validates and stores an item's value.
func (s *Server) SetCategoryItem(ctx context.Context, req gen.SetCategoryItemRequestObject) (gen.SetCategoryItemResponseObject, error) {
	it, err := s.config.SetValue(ctx, req.Name, req.Item, req.Body.Value)
	if err != nil {
		return nil, err
	}
	return gen.SetCategoryItem200JSONResponse(itemOut(it)), nil
}

// SetCategoryItems validates and stores the values of several items of a
// category at once, all or nothing, and returns the whole category.
func (s *Server) SetCategoryItems(ctx context.Context, req gen.SetCategoryItemsRequestObject) (gen.SetCategoryItemsResponseObject, error) {
	c, err := s.config.SetValues(ctx, req.Name, *req.Body)
	if err != nil {
		return nil, err
	}
	return gen.SetCategoryItems200JSONResponse(itemsOut(c.Items)), nil
}

// ListCategoryChildren lists the child categories of a category.
func (s *Server) ListCategoryChildren(ctx context.Context, req gen.ListCategoryChildrenRequestObject) (gen.ListCategoryChildrenResponseObject, error) {
	cats, err := s.config.Children(ctx, req.Name)
	if err != nil {
		return nil, err
	}
	return gen.ListCategoryChildren200JSONResponse(categoryList(cats)), nil
}

// AddCategoryChildren attaches child categories and returns all children.
func (s *Server) AddCategoryChildren(ctx context.Context, req gen.AddCategoryChildrenRequestObject) (gen.AddCategoryChildrenResponseObject, error) {
	keys, err := s.config.AddChildren(ctx, req.Name, req.Body.Children)
	if err != nil {
		return nil, err
	}
	return gen.AddCategoryChildren200JSONResponse{Children: keys}, nil
}

// RemoveCategoryChild detaches a child category and returns the remaining
// children.
func (s *Server) RemoveCategoryChild(ctx context.Context, req gen.RemoveCategoryChildRequestObject) (gen.RemoveCategoryChildResponseObject, error) {
	keys, err := s.config.RemoveChild(ctx, req.Name, req.Child)
	if err != nil {
		return nil, err
	}
	return gen.RemoveCategoryChild200JSONResponse{Children: keys}, nil
}

// GetCategoryParent returns a category's parent, null for a root.
func (s *Server) GetCategoryParent(ctx context.Context, req gen.GetCategoryParentRequestObject) (gen.GetCategoryParentResponseObject, error) {
	p, ok, err := s.config.Parent(ctx, req.Name)
	if err != nil {
		return nil, err
	}
	out := gen.GetCategoryParent200JSONResponse{}
	if ok {
		sum := categorySummary(p)
		out.Parent = &sum
	}
	return out, nil
}

// ResetCategoryItem returns an item's value to its default.
func (s *Server) ResetCategoryItem(ctx context.Context, req gen.ResetCategoryItemRequestObject) (gen.ResetCategoryItemResponseObject, error) {
	it, err := s.config.ResetValue(ctx, req.Name, req.Item)
	if err != nil {
		return nil, err
	}
	return gen.ResetCategoryItem200JSONResponse(itemOut(it)), nil
}

// CreateCategory creates a category or merges the request into an existing
// one. Item definitions may come in `items` or `value`; the router has
// already turned a `display_name` into `displayName` (x-aliases).
func (s *Server) CreateCategory(ctx context.Context, req gen.CreateCategoryRequestObject) (gen.CreateCategoryResponseObject, error) {
	b := req.Body
	in := configmgr.CategoryInput{
		Key:         b.Key,
		Description: valueOr(b.Description, ""),
		DisplayName: valueOr(b.DisplayName, ""),
		Items:       map[string]configmgr.Item{},
	}
	for _, defs := range []*map[string]gen.ConfigItemDefinition{b.Items, b.Value} {
		if defs == nil {
			continue
		}
		for name, d := range *defs {
			if _, dup := in.Items[name]; dup {
				return nil, fault.New(fault.Invalid, "item %q is defined in both items and value", name)
			}
			in.Items[name] = definitionIn(d)
		}
	}
	c, err := s.config.Create(ctx, in)
	if err != nil {
		return nil, err
	}
	return gen.CreateCategory200JSONResponse{
		Key:         c.Key,
		Description: c.Description,
		DisplayName: optional(c.DisplayName),
		Value:       itemsOut(c.Items),
	}, nil
}

// itemsOut converts a category's items to their wire form.
func itemsOut(items map[string]configmgr.Item) map[string]gen.ConfigItem {
	out := make(map[string]gen.ConfigItem, len(items))
	for name, it := range items {
		out[name] = itemOut(it)
	}
	return out
}

// itemOut converts an item to its wire form; empty attributes are absent.
func itemOut(it configmgr.Item) gen.ConfigItem {
	out := gen.ConfigItem{
		Description: it.Description,
		Type:        it.Type,
		Value:       it.Value,
		Default:     optional(it.Default),
		DisplayName: optional(it.DisplayName),
		Order:       optional(it.Order),
		Validity:    optional(it.Validity),
		Minimum:     optional(it.Minimum),
		Maximum:     optional(it.Maximum),
		Length:      optional(it.Length),
	}
	if it.Options != nil {
		opts := append([]string(nil), it.Options...)
		out.Options = &opts
	}
	if it.Readonly != "" {
		ro := gen.ConfigItemReadonly(it.Readonly)
		out.Readonly = &ro
	}
	if it.Mandatory != "" {
		m := gen.ConfigItemMandatory(it.Mandatory)
		out.Mandatory = &m
	}
	return out
}

// definitionIn converts a wire item definition to the domain's item.
func definitionIn(d gen.ConfigItemDefinition) configmgr.Item {
	it := configmgr.Item{
		Description: d.Description,
		Type:        string(d.Type),
		Default:     valueOr(d.Default, ""),
		DisplayName: valueOr(d.DisplayName, ""),
		Order:       valueOr(d.Order, ""),
		Validity:    valueOr(d.Validity, ""),
		Minimum:     valueOr(d.Minimum, ""),
		Maximum:     valueOr(d.Maximum, ""),
		Length:      valueOr(d.Length, ""),
		Options:     valueOr(d.Options, nil),
	}
	if d.Readonly != nil {
		it.Readonly = string(*d.Readonly)
	}
	if d.Mandatory != nil {
		it.Mandatory = string(*d.Mandatory)
	}
	return it
}
