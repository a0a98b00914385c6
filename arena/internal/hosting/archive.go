package hosting

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Bounds of a submitted source: what an author may upload and what it may unpack to.
const (
	MaxArchive  = 64 << 20  // bytes of the stored archive (gzipped tar)
	MaxUnpacked = 512 << 20 // bytes of all its files
	MaxFiles    = 50_000
)

// skipped are folders a project has that are not its source: version control, virtual
// environments, caches, earlier builds.
var skipped = map[string]bool{".git": true, ".hg": true, ".venv": true, "venv": true, "__pycache__": true,
	".mypy_cache": true, ".pytest_cache": true, ".ruff_cache": true, "node_modules": true}

// file is one entry of a source tree.
type file struct {
	name string // slash-separated, relative
	data []byte
	exec bool
}

// Pack reads a project folder, or an archive of one (.tar.gz, .tgz, .tar or .zip), and
// returns its canonical archive: a gzipped tar of the regular files, sorted, with times,
// owners and modes normalised (0644, or 0755 for executables), so that the same source
// always has the same digest. Symbolic links, devices and paths that leave the folder are
// refused with the name concerned; so is a source over the bounds above.
func Pack(src string) ([]byte, error) {
	fi, err := os.Stat(src)
	if err != nil {
		return nil, err
	}
	var files []file
	if fi.IsDir() {
		files, err = readDir(src)
	} else {
		files, err = readArchive(src)
	}
	if err != nil {
		return nil, err
	}
	return canonical(files)
}

func readDir(root string) ([]file, error) {
	var files []file
	var total int64
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			if rel != "." && skipped[d.Name()] {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			return fmt.Errorf("%s is a symbolic link: submit the file itself", rel)
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s is not a regular file", rel)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if total += info.Size(); total > MaxUnpacked {
			return fmt.Errorf("the source is over %d MiB", MaxUnpacked>>20)
		}
		if len(files) >= MaxFiles {
			return fmt.Errorf("the source has over %d files", MaxFiles)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files = append(files, file{name: filepath.ToSlash(rel), data: data, exec: info.Mode()&0o111 != 0})
		return nil
	})
	return files, err
}

func readArchive(name string) ([]file, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	return unpack(f, fi.Size(), name)
}

// PackArchive is Pack of an archive in memory; format is its kind, as a file's name or
// extension would give it ("tar.gz", "tgz", "tar", "zip").
func PackArchive(archive []byte, format string) ([]byte, error) {
	if int64(len(archive)) > MaxArchive {
		return nil, fmt.Errorf("the archive is over %d MiB", MaxArchive>>20)
	}
	files, err := unpack(bytes.NewReader(archive), int64(len(archive)), "upload."+strings.TrimPrefix(format, "."))
	if err != nil {
		return nil, err
	}
	return canonical(files)
}

// unpack reads the files of an archive of size bytes, of the kind its name's extension says.
func unpack(r io.ReaderAt, size int64, name string) ([]file, error) {
	lower := strings.ToLower(name)
	switch {
	case strings.HasSuffix(lower, ".zip"):
		return readZip(r, size)
	case strings.HasSuffix(lower, ".tar.gz"), strings.HasSuffix(lower, ".tgz"):
		gz, err := gzip.NewReader(io.NewSectionReader(r, 0, size))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return readTar(gz)
	case strings.HasSuffix(lower, ".tar"):
		return readTar(io.NewSectionReader(r, 0, size))
	}
	return nil, fmt.Errorf("%s: submit a folder or a .tar.gz, .tgz, .tar or .zip archive", name)
}

// entryName checks an archive's path: relative, inside the folder, not skipped.
func entryName(name string) (string, bool, error) {
	clean := path.Clean(strings.TrimPrefix(name, "./"))
	if path.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") || strings.Contains(clean, "\\") {
		return "", false, fmt.Errorf("archive entry %q leaves the project folder", name)
	}
	for _, part := range strings.Split(clean, "/") {
		if skipped[part] {
			return clean, true, nil
		}
	}
	return clean, false, nil
}

// limited reads an entry, counting it against the bounds.
type bounds struct {
	total int64
	files int
}

func (b *bounds) read(r io.Reader, name string) ([]byte, error) {
	if b.files++; b.files > MaxFiles {
		return nil, fmt.Errorf("the source has over %d files", MaxFiles)
	}
	data, err := io.ReadAll(io.LimitReader(r, MaxUnpacked-b.total+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if b.total += int64(len(data)); b.total > MaxUnpacked {
		return nil, fmt.Errorf("the source unpacks to over %d MiB", MaxUnpacked>>20)
	}
	return data, nil
}

func readTar(r io.Reader) ([]file, error) {
	tr := tar.NewReader(r)
	var files []file
	var b bounds
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return files, nil
		}
		if err != nil {
			return nil, fmt.Errorf("reading the archive: %w", err)
		}
		name, skip, err := entryName(h.Name)
		if err != nil {
			return nil, err
		}
		switch h.Typeflag {
		case tar.TypeDir, tar.TypeXGlobalHeader:
			continue
		case tar.TypeReg:
		case tar.TypeSymlink, tar.TypeLink:
			return nil, fmt.Errorf("archive entry %s is a link: submit the file itself", h.Name)
		default:
			return nil, fmt.Errorf("archive entry %s is not a regular file", h.Name)
		}
		if skip {
			continue
		}
		data, err := b.read(tr, h.Name)
		if err != nil {
			return nil, err
		}
		files = append(files, file{name: name, data: data, exec: h.Mode&0o111 != 0})
	}
}

func readZip(r io.ReaderAt, size int64) ([]file, error) {
	zr, err := zip.NewReader(r, size)
	if err != nil {
		return nil, fmt.Errorf("reading the archive: %w", err)
	}
	var files []file
	var b bounds
	for _, zf := range zr.File {
		name, skip, err := entryName(zf.Name)
		if err != nil {
			return nil, err
		}
		mode := zf.Mode()
		if mode.IsDir() {
			continue
		}
		if !mode.IsRegular() {
			return nil, fmt.Errorf("archive entry %s is not a regular file", zf.Name)
		}
		if skip {
			continue
		}
		rc, err := zf.Open()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", zf.Name, err)
		}
		data, err := b.read(rc, zf.Name)
		rc.Close()
		if err != nil {
			return nil, err
		}
		files = append(files, file{name: name, data: data, exec: mode&0o111 != 0})
	}
	return files, nil
}

// A single top folder (project/…) is the project itself: archives made with
// `tar czf bot.tgz bot` hold one.
func stripTop(files []file) []file {
	if len(files) == 0 {
		return files
	}
	top, _, ok := strings.Cut(files[0].name, "/")
	if !ok {
		return files
	}
	for _, f := range files {
		if !strings.HasPrefix(f.name, top+"/") {
			return files
		}
	}
	for i := range files {
		files[i].name = strings.TrimPrefix(files[i].name, top+"/")
	}
	return files
}

func canonical(files []file) ([]byte, error) {
	files = stripTop(files)
	slices.SortFunc(files, func(a, b file) int { return strings.Compare(a.name, b.name) })
	for i := 1; i < len(files); i++ {
		if files[i].name == files[i-1].name {
			return nil, fmt.Errorf("the archive holds %s twice", files[i].name)
		}
	}
	if len(files) == 0 {
		return nil, errors.New("the source is empty")
	}
	var buf bytes.Buffer
	gz, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	tw := tar.NewWriter(gz)
	for _, f := range files {
		mode := int64(0o644)
		if f.exec {
			mode = 0o755
		}
		h := &tar.Header{Name: f.name, Mode: mode, Size: int64(len(f.data)), Typeflag: tar.TypeReg,
			ModTime: time.Unix(0, 0), Format: tar.FormatPAX}
		if err := tw.WriteHeader(h); err != nil {
			return nil, err
		}
		if _, err := tw.Write(f.data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := gz.Close(); err != nil {
		return nil, err
	}
	if buf.Len() > MaxArchive {
		return nil, fmt.Errorf("the source is %d MiB packed, over the limit of %d MiB", buf.Len()>>20, MaxArchive>>20)
	}
	return buf.Bytes(), nil
}

// Digest is the sha256 of an archive, hex.
func Digest(archive []byte) string {
	sum := sha256.Sum256(archive)
	return hex.EncodeToString(sum[:])
}

// filesOf reads a canonical archive back.
func filesOf(archive []byte) ([]file, error) {
	gz, err := gzip.NewReader(bytes.NewReader(archive))
	if err != nil {
		return nil, err
	}
	return readTar(gz)
}

// Unpack writes a canonical archive's files under dir (which must not exist), each mode
// 0644 or 0755, folders 0755: readable by the sandbox's user, writable by no one else.
func Unpack(archive []byte, dir string) error {
	files, err := filesOf(archive)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		mode := os.FileMode(0o644)
		if f.exec {
			mode = 0o755
		}
		if err := os.WriteFile(p, f.data, mode); err != nil {
			return err
		}
		if err := os.Chmod(p, mode); err != nil { // past the umask
			return err
		}
	}
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			err = os.Chmod(p, 0o755)
		}
		return err
	})
}
