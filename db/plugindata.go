package db

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/jmoiron/sqlx"
)

// GetPluginData returns the data the plugin instance pluginName of service
// persisted; an error wrapping ErrNotFound when there is none.
func (d *DB) GetPluginData(ctx context.Context, service, pluginName string) (json.RawMessage, error) {
	var data string
	q := d.r.Rebind(`SELECT data FROM plugin_data WHERE service_name = ? AND plugin_name = ?`)
	if err := d.r.GetContext(ctx, &data, q, service, pluginName); err != nil {
		return nil, fmt.Errorf("db: get data of plugin %q of service %q: %w", pluginName, service, translate(err))
	}
	return json.RawMessage(data), nil
}

// InsertPluginData stores data for the plugin instance unless it already
// has some, in which case the error wraps ErrConflict. data must be a JSON
// document; invalid JSON is an error wrapping no sentinel.
func (d *DB) InsertPluginData(ctx context.Context, service, pluginName string, data json.RawMessage) error {
	err := d.inTx(ctx, func(tx *sqlx.Tx) error {
		q := tx.Rebind(`INSERT INTO plugin_data (service_name, plugin_name, data, updated_at) VALUES (?, ?, ?, ?)`)
		_, err := tx.ExecContext(ctx, q, service, pluginName, jsonArg(data), now())
		return translate(err)
	})
	if err != nil {
		return fmt.Errorf("db: insert data of plugin %q of service %q: %w", pluginName, service, err)
	}
	return nil
}

// SavePluginData stores data for the plugin instance, replacing what it
// had. It is how a plugin persists its state at shutdown.
func (d *DB) SavePluginData(ctx context.Context, service, pluginName string, data json.RawMessage) error {
	err := d.inTx(ctx, func(tx *sqlx.Tx) error {
		q := tx.Rebind(`INSERT INTO plugin_data (service_name, plugin_name, data, updated_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (service_name, plugin_name) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at`)
		_, err := tx.ExecContext(ctx, q, service, pluginName, jsonArg(data), now())
		return translate(err)
	})
	if err != nil {
		return fmt.Errorf("db: save data of plugin %q of service %q: %w", pluginName, service, err)
	}
	return nil
}

// DeletePluginData removes the plugin instance's data; an error wrapping
// ErrNotFound when there is none.
func (d *DB) DeletePluginData(ctx context.Context, service, pluginName string) error {
	err := d.inTx(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM plugin_data WHERE service_name = ? AND plugin_name = ?`),
			service, pluginName)
		if err != nil {
			return translate(err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		if n == 0 {
			return ErrNotFound
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("db: delete data of plugin %q of service %q: %w", pluginName, service, err)
	}
	return nil
}
