"""protoc plugin for `buf generate`: the Python SDK's generated code, inside the tapp_bot package.

protoc's Python generators name a module after its proto file's path (tapp/v1/bot.proto becomes
the module tapp.v1.bot_pb2) and import one generated module from another by that name, which
would make the SDK's wheel claim the top-level name `tapp`. This plugin runs the generators of
the pinned grpcio-tools (messages, .pyi stubs and gRPC stubs: grpcio-tools ships the gRPC one
only inside its bundled protoc, and buf runs protoc built-ins only for the languages protoc
itself knows) and moves the modules under a package: with `prefix=tapp_bot.proto` (buf.gen.yaml)
tapp/v1/bot.proto becomes tapp_bot.proto.tapp.v1.bot_pb2. It rewrites what names the modules:
the imports between generated modules and the module name that the message classes carry
(pickling looks classes up by it); imports of protobuf's own modules stay as they are. It also
writes an __init__.py for every package on the way. Run it with the virtualenv's python
(buf.gen.yaml), so the generators are the pinned ones.

A well-kept tool for the import rewriting would be better; protoletariat, the one there is,
requires protobuf < 6, while the SDK needs protobuf 7 at run time (bots/python/pyproject.toml).
"""

from __future__ import annotations

import os
import re
import sys
import tempfile

from google.protobuf import descriptor_pb2
from google.protobuf.compiler import plugin_pb2
from grpc_tools import protoc


def module_of(proto: str) -> str:
    """tapp/v1/bot.proto -> tapp.v1.bot_pb2: the module protoc names after a proto file."""
    return proto.removesuffix(".proto").replace("/", ".").replace("-", "_") + "_pb2"


def rewrite(content: str, ours: set[str], prefix: str) -> str:
    """Puts the generated modules named in content under prefix."""

    def imported(m: re.Match[str]) -> str:
        package, name = m.group(2), m.group(3)
        if f"{package}.{name}" not in ours:
            return m.group(0)
        return f"{m.group(1)}from {prefix}.{package} import {name}{m.group(4)}"

    content = re.sub(r"(?m)^(\s*)from ([\w.]+) import (\w+)((?: as \w+)?)$", imported, content)

    def named(m: re.Match[str]) -> str:
        return f"'{prefix}.{m.group(1)}'" if m.group(1) in ours else m.group(0)

    return re.sub(r"'([\w.]+_pb2)'", named, content)


def generate(request: plugin_pb2.CodeGeneratorRequest) -> plugin_pb2.CodeGeneratorResponse:
    response = plugin_pb2.CodeGeneratorResponse(
        supported_features=plugin_pb2.CodeGeneratorResponse.FEATURE_PROTO3_OPTIONAL
    )
    options = dict(o.split("=", 1) for o in request.parameter.split(",") if "=" in o)
    prefix = options.get("prefix", "")
    if not re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", prefix):
        response.error = f"protoc-gen-tapp-python: give the package as opt: prefix=a.b (got {prefix!r})"
        return response
    ours = {module_of(f.name) for f in request.proto_file if not f.name.startswith("google/")}
    with tempfile.TemporaryDirectory(prefix="protoc-gen-tapp-python-") as tmp:
        descriptors = os.path.join(tmp, "descriptors.pb")
        with open(descriptors, "wb") as f:
            f.write(descriptor_pb2.FileDescriptorSet(file=request.proto_file).SerializeToString())
        out = os.path.join(tmp, "out")
        os.mkdir(out)
        args = [
            "grpc_tools.protoc",
            f"--descriptor_set_in={descriptors}",
            f"--python_out={out}",
            f"--pyi_out={out}",
            f"--grpc_python_out={out}",
            *request.file_to_generate,
        ]
        if protoc.main(args) != 0:
            response.error = "grpc_tools.protoc failed (see its messages above)"
            return response
        packages = {""}
        for root, _, names in os.walk(out):
            for name in sorted(names):
                path = os.path.join(root, name)
                rel = os.path.relpath(path, out).replace(os.sep, "/")
                with open(path, encoding="utf-8") as f:
                    response.file.add(name=rel, content=rewrite(f.read(), ours, prefix))
                parts = rel.split("/")[:-1]
                packages.update("/".join(parts[:i]) for i in range(1, len(parts) + 1))
    for package in sorted(packages):
        name = f"{prefix}.{package.replace('/', '.')}" if package else prefix
        source = f"proto/{package}" if package else "proto/"
        response.file.add(
            name=f"{package}/__init__.py" if package else "__init__.py",
            content=f'"""{name}: generated from {source} by make generate (tools/protoc-gen-tapp-python.py)."""\n',
        )
    response.file.sort(key=lambda f: f.name)
    return response


def main() -> None:
    request = plugin_pb2.CodeGeneratorRequest.FromString(sys.stdin.buffer.read())
    sys.stdout.buffer.write(generate(request).SerializeToString())


if __name__ == "__main__":
    main()
