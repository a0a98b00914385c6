package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"

	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/tapparena/tapp/arena/internal/domain"
	viewv1 "github.com/tapparena/tapp/proto/tapp/view/v1"
)

// Submissions stores a hosted bot's new version for the bot's token holder: the hosting use
// case, which the command wires in, so that the dashboard links none of the building,
// sandboxes or ladders behind it. Its errors wrap domain.ErrInvalid when the upload is at
// fault and domain.ErrForbidden when the token is not the bot's.
type Submissions func(ctx context.Context, u Upload) (*domain.Submission, error)

// Upload is one version of a hosted bot, uploaded.
type Upload struct {
	Bot     string // the registered bot it is a version of
	Token   string // the bot's token
	Lang    string // go or python
	Entry   string // python: the file to run; go: the package to build ("": the default)
	Archive []byte // the source: an archive of the format Format
	Format  string // tar.gz or zip
}

// MaxUpload bounds an uploaded archive (the hosting use case's own bound on a source).
const MaxUpload = 64 << 20

// maxUploadBody bounds the HTTP body of an upload: the archive in protobuf JSON (base64, a
// third larger) and the other fields. maxUploadMessage bounds the message the transcoder
// hands the service's gRPC server (the archive as bytes).
const (
	maxUploadBody    = MaxUpload/3*4 + 1<<20
	maxUploadMessage = MaxUpload + 1<<20
)

// submissionService is the SubmissionService (proto/tapp/view/v1/submission.proto): a
// hosted bot's new version for its token holder, which the upload page and `tapp submit
// --web` send. Its own gRPC server (registerSubmissions) takes messages up to
// maxUploadMessage; the view's keeps the default limit.
type submissionService struct {
	viewv1.UnimplementedSubmissionServiceServer
	submit Submissions
	log    *zap.Logger
}

var archiveFormats = map[viewv1.ArchiveFormat]string{
	viewv1.ArchiveFormat_ARCHIVE_FORMAT_UNSPECIFIED: "tar.gz",
	viewv1.ArchiveFormat_ARCHIVE_FORMAT_TAR_GZ:      "tar.gz",
	viewv1.ArchiveFormat_ARCHIVE_FORMAT_ZIP:         "zip",
}

// SubmitVersion stores the version, queued for its build on the ladder.
func (s *submissionService) SubmitVersion(ctx context.Context, req *viewv1.SubmitVersionRequest) (*viewv1.SubmitVersionResponse, error) {
	token := bearer(ctx)
	if token == "" {
		return nil, status.Error(codes.Unauthenticated, "send the bot's token as authorization: Bearer TOKEN")
	}
	format, ok := archiveFormats[req.GetFormat()]
	if !ok {
		return nil, status.Errorf(codes.InvalidArgument, "format: unknown archive format %d", req.GetFormat())
	}
	if n := len(req.GetArchive()); n > MaxUpload {
		return nil, status.Errorf(codes.InvalidArgument, "archive: %d MiB, more than the %d MiB a version may have", n>>20, MaxUpload>>20)
	}
	sub, err := s.submit(ctx, Upload{Bot: req.GetBot(), Token: token, Lang: req.GetLang(), Entry: req.GetEntry(), Archive: req.GetArchive(), Format: format})
	switch {
	case errors.Is(err, domain.ErrForbidden):
		return nil, status.Error(codes.PermissionDenied, err.Error())
	case errors.Is(err, domain.ErrInvalid):
		return nil, status.Error(codes.InvalidArgument, err.Error())
	case err != nil:
		s.log.Error("upload failed", zap.Error(err))
		return nil, status.Error(codes.Internal, "the arena could not store the version")
	}
	s.log.Info("version submitted", zap.String("version", sub.Name()), zap.String("digest", sub.Digest))
	return &viewv1.SubmitVersionResponse{Name: sub.Name(), Version: int32(sub.Version), Digest: sub.Digest, Status: string(sub.Status)}, nil
}

// registerSubmissions is the service's own gRPC server, which takes an archive's worth.
func registerSubmissions(submit Submissions, log *zap.Logger) *grpc.Server {
	g := grpc.NewServer(grpc.MaxRecvMsgSize(maxUploadMessage))
	viewv1.RegisterSubmissionServiceServer(g, &submissionService{submit: submit, log: log})
	return g
}

// uploadGuard stands before the service's path: a token never crosses a network in clear
// text (over plain HTTP only loopback clients may upload), and a body larger than an
// archive's bound is refused before it is read. Its refusals are Connect errors, as the
// service's own are.
func uploadGuard(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.TLS == nil && !loopbackClient(r) {
			connectError(w, http.StatusForbidden, "permission_denied", "uploads carry a bot token: use TLS, or upload from this machine")
			return
		}
		if r.ContentLength > maxUploadBody {
			connectError(w, http.StatusBadRequest, "invalid_argument",
				fmt.Sprintf("the upload is %d MiB, more than a version of %d MiB may take", r.ContentLength>>20, MaxUpload>>20))
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, maxUploadBody)
		h.ServeHTTP(w, r)
	})
}

// connectError writes an error as the Connect protocol's unary calls carry one.
func connectError(w http.ResponseWriter, httpStatus int, code, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(httpStatus)
	_ = json.NewEncoder(w).Encode(map[string]string{"code": code, "message": msg})
}

func loopbackClient(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
