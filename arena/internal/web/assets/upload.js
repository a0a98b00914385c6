// The dashboard's upload: one version of a hosted bot, sent to the arena's SubmissionService
// (proto/tapp/view/v1/submission.proto) over the Connect protocol with protobuf JSON, with
// the bot's token as the Bearer header. A file of its own: the page's CSP runs no inline
// script.
"use strict";

// base64 of a file's bytes (protobuf JSON carries bytes as base64).
function fileBase64(file) {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result).replace(/^data:[^,]*,/, ""));
    r.onerror = () => reject(r.error);
    r.readAsDataURL(file);
  });
}

document.getElementById("upload").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const f = new FormData(ev.target);
  const file = f.get("source");
  const out = document.getElementById("result");
  out.textContent = "uploading …";
  try {
    const req = {
      bot: f.get("bot"), lang: f.get("lang"), entry: f.get("entry") || "",
      archive: await fileBase64(file),
      format: file.name.toLowerCase().endsWith(".zip") ? "ARCHIVE_FORMAT_ZIP" : "ARCHIVE_FORMAT_TAR_GZ",
    };
    const resp = await fetch("tapp.view.v1.SubmissionService/SubmitVersion", {method: "POST", body: JSON.stringify(req),
      headers: {"Content-Type": "application/json", "Connect-Protocol-Version": "1", "Authorization": "Bearer " + f.get("token")}});
    const body = await resp.json().catch(() => ({}));
    out.textContent = resp.ok ? `stored ${body.name} (sha256 ${body.digest}): ${body.status}; it builds and plays its gauntlet on the ladder`
                              : `${body.code || resp.status}: ${body.message || resp.statusText}`;
  } catch (e) {
    out.textContent = "upload failed: " + e;
  }
});
