//! The watcher's HTTP/1 server (hyper on a one-thread tokio runtime):
//! at most [`MOST_CONNECTIONS`] connections at once (more wait to be
//! accepted), a request head of at most [`MOST_HEAD`] bytes (hyper answers
//! 431 past it, 400 to a malformed one), and a client that does not send
//! its head within [`HEAD_TIMEOUT`] is dropped, so slow clients cannot
//! hold the connections for long. Only GET and HEAD; only the watcher's
//! own paths (everything else 404). Every response forbids scripts,
//! styles and frames from elsewhere, and inline ones.

use super::board::Snapshot;
use super::pages;
use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::header::{HeaderValue, ALLOW, CACHE_CONTROL, CONTENT_TYPE};
use hyper::{Method, Request, Response, StatusCode};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Connections served at once.
pub const MOST_CONNECTIONS: usize = 64;

/// Largest request head, in bytes.
pub const MOST_HEAD: usize = 16 * 1024;

/// Time a client has to send its request head.
pub const HEAD_TIMEOUT: Duration = Duration::from_secs(3);

/// Longest a connection is kept (a browser opens another).
pub const CONNECTION_LIFE: Duration = Duration::from_secs(60);

/// The snapshot being served, replaced after each refresh.
pub type Shared = Arc<Mutex<Arc<Snapshot>>>;

/// Serves `shared` on `listener` until the process ends.
pub async fn serve(listener: tokio::net::TcpListener, shared: Shared) {
    let slots = Arc::new(tokio::sync::Semaphore::new(MOST_CONNECTIONS));
    loop {
        let Ok(slot) = Arc::clone(&slots).acquire_owned().await else {
            return;
        };
        let stream = match listener.accept().await {
            Ok((s, _)) => s,
            Err(_) => {
                // Out of descriptors, or a connection reset before accept.
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let shared = Arc::clone(&shared);
        tokio::task::spawn(async move {
            let service = hyper::service::service_fn(move |req| {
                let snap = Arc::clone(&shared.lock().unwrap_or_else(|e| e.into_inner()));
                async move { Ok::<_, std::convert::Infallible>(respond(&snap, &req)) }
            });
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(HEAD_TIMEOUT)
                .max_buf_size(MOST_HEAD);
            let conn = builder.serve_connection(hyper_util::rt::TokioIo::new(stream), service);
            let _ = tokio::time::timeout(CONNECTION_LIFE, conn).await;
            drop(slot);
        });
    }
}

type Reply = Response<Full<Bytes>>;

fn reply(status: StatusCode, kind: &'static str, body: impl Into<Bytes>) -> Reply {
    let mut r = Response::new(Full::new(body.into()));
    *r.status_mut() = status;
    let h = r.headers_mut();
    h.insert(CONTENT_TYPE, HeaderValue::from_static(kind));
    h.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(
        "content-security-policy",
        HeaderValue::from_static("default-src 'self'"),
    );
    h.insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    h.insert("referrer-policy", HeaderValue::from_static("no-referrer"));
    r
}

fn not_found() -> Reply {
    reply(
        StatusCode::NOT_FOUND,
        "text/plain; charset=utf-8",
        "not found\n",
    )
}

const HTML: &str = "text/html; charset=utf-8";
const JSON: &str = "application/json";

/// The response to `req` from `snap`: GET and HEAD of the watcher's own
/// paths only.
pub fn respond(snap: &Snapshot, req: &Request<Incoming>) -> Reply {
    if req.method() != Method::GET && req.method() != Method::HEAD {
        let mut r = reply(
            StatusCode::METHOD_NOT_ALLOWED,
            "text/plain; charset=utf-8",
            "read-only: GET and HEAD only\n",
        );
        r.headers_mut()
            .insert(ALLOW, HeaderValue::from_static("GET, HEAD"));
        return r;
    }
    route(snap, req.uri().path())
}

/// The response to a GET of `path`.
pub fn route(snap: &Snapshot, path: &str) -> Reply {
    match path {
        "/" => return reply(StatusCode::OK, HTML, pages::index(&snap.rows)),
        "/runs.json" => return reply(StatusCode::OK, JSON, snap.runs_json.clone()),
        _ => {}
    }
    if let Some(name) = path.strip_prefix("/static/") {
        return match pages::static_file(name) {
            Some((kind, text)) => reply(StatusCode::OK, kind, text),
            None => not_found(),
        };
    }
    let Some(rest) = path.strip_prefix("/run/") else {
        return not_found();
    };
    let (encoded, file) = match rest.rsplit_once('/') {
        Some((n, f)) if !n.is_empty() => (n, f),
        _ => return not_found(),
    };
    // Only names the walk found are served: a decoded `..` or an absolute
    // path is no run's name.
    let Some(view) = percent_decode(encoded).and_then(|n| snap.runs.get(&n).map(|v| (n, v))) else {
        return not_found();
    };
    let (name, view) = view;
    match file {
        "" => reply(StatusCode::OK, HTML, pages::run_page(&name, view)),
        "live.json" => reply(StatusCode::OK, JSON, view.live_json.clone()),
        "figures.html" => reply(StatusCode::OK, HTML, view.figures.clone()),
        _ => not_found(),
    }
}

/// `text` with its `%XX` escapes decoded (`None`: a bad escape, or not
/// UTF-8).
pub fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}
