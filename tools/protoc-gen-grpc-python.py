"""protoc plugin that runs grpcio-tools' gRPC Python generator, for `buf generate`.

grpcio-tools ships the gRPC Python generator only inside its bundled protoc (--grpc_python_out),
not as a protoc-gen-* plugin, and buf runs protoc built-ins only for the languages protoc itself
knows. This plugin bridges the two: it reads the CodeGeneratorRequest from stdin, hands the
request's descriptors to grpcio-tools' protoc, and returns the files it wrote. Run it with the
virtualenv's python (see buf.gen.yaml) so the generator is the pinned grpcio-tools.
"""

from __future__ import annotations

import os
import sys
import tempfile

from google.protobuf import descriptor_pb2
from google.protobuf.compiler import plugin_pb2
from grpc_tools import protoc


def generate(request: plugin_pb2.CodeGeneratorRequest) -> plugin_pb2.CodeGeneratorResponse:
    response = plugin_pb2.CodeGeneratorResponse(
        supported_features=plugin_pb2.CodeGeneratorResponse.FEATURE_PROTO3_OPTIONAL
    )
    with tempfile.TemporaryDirectory(prefix="protoc-gen-grpc-python-") as tmp:
        descriptors = os.path.join(tmp, "descriptors.pb")
        with open(descriptors, "wb") as f:
            f.write(descriptor_pb2.FileDescriptorSet(file=request.proto_file).SerializeToString())
        out = os.path.join(tmp, "out")
        os.mkdir(out)
        params = f"{request.parameter}:" if request.parameter else ""
        args = [
            "grpc_tools.protoc",
            f"--descriptor_set_in={descriptors}",
            f"--grpc_python_out={params}{out}",
            *request.file_to_generate,
        ]
        if protoc.main(args) != 0:
            response.error = "grpc_tools.protoc failed (see its messages above)"
            return response
        for root, _, names in os.walk(out):
            for name in sorted(names):
                path = os.path.join(root, name)
                with open(path, encoding="utf-8") as f:
                    response.file.add(name=os.path.relpath(path, out).replace(os.sep, "/"), content=f.read())
    response.file.sort(key=lambda f: f.name)
    return response


def main() -> None:
    request = plugin_pb2.CodeGeneratorRequest.FromString(sys.stdin.buffer.read())
    sys.stdout.buffer.write(generate(request).SerializeToString())


if __name__ == "__main__":
    main()
