// Package pkgrepo is the gateway's client of package repositories: it
// fetches a repository's index and verifies it (Repo.Index), downloads an
// artifact checking its size and digest against the trusted index
// (Repo.Download) and unpacks it refusing anything that could write
// outside the target directory (Unpack). The repository format itself —
// the index, its signature, publishing — is package pkgindex, which
// edgepkg and other tools share; its names are repeated here so the
// gateway's code speaks of one package.
package pkgrepo

import "github.com/edged/edged/pkg/pkgindex"

// File names of a repository.
const (
	IndexFile     = pkgindex.IndexFile
	SignatureFile = pkgindex.SignatureFile
)

// Package types.
const (
	TypeService = pkgindex.TypeService
	TypePlugin  = pkgindex.TypePlugin
)

// DefaultValidity is how long a published index stays valid by default.
const DefaultValidity = pkgindex.DefaultValidity

// Errors of verification.
var (
	ErrUnsigned     = pkgindex.ErrUnsigned
	ErrBadSignature = pkgindex.ErrBadSignature
	ErrTampered     = pkgindex.ErrTampered
	ErrInvalidIndex = pkgindex.ErrInvalidIndex
	ErrRollback     = pkgindex.ErrRollback
	ErrExpired      = pkgindex.ErrExpired
)

type (
	// Index is a repository's list of packages.
	Index = pkgindex.Index
	// Package is one version of a package.
	Package = pkgindex.Package
	// Artifact is the archive of a package for one OS and architecture.
	Artifact = pkgindex.Artifact
	// File is a file of an artifact.
	File = pkgindex.File
)

// The format's functions, for the gateway's code and its tests.
var (
	ParseKey        = pkgindex.ParseKey
	Sign            = pkgindex.Sign
	Verify          = pkgindex.Verify
	Pack            = pkgindex.Pack
	Publish         = pkgindex.Publish
	PublishFor      = pkgindex.PublishFor
	Resign          = pkgindex.Resign
	WriteIndex      = pkgindex.WriteIndex
	CompareVersions = pkgindex.CompareVersions
)
