package server

import (
	"google.golang.org/grpc"

	tappv1 "github.com/tapparena/tapp/proto/tapp/v1"
)

// RegisterAdmin registers this server's admin service on another gRPC server, such as the web
// dashboard's, where every call still needs the admin token.
func (s *Server) RegisterAdmin(r grpc.ServiceRegistrar) {
	tappv1.RegisterAdminServiceServer(r, s.admin)
}
