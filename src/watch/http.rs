//! The watcher's HTTP/1 server (hyper on a one-thread tokio runtime):
//! at most [`MOST_CONNECTIONS`] connections at once (more wait to be
//! accepted), a request head of at most [`MOST_HEAD`] bytes (hyper answers
//! 431 past it, 400 to a malformed one), and a client that does not send
//! its head within [`HEAD_TIMEOUT`] is dropped, so slow clients cannot
//! hold the connections for long. Only GET and HEAD; only the watcher's
//! own paths (everything else 404). Every response forbids scripts,
//! styles and frames from elsewhere, and inline ones: the service's own
//! ([`reply`]), and the ones hyper writes itself before the service runs
//! (400, 414, 431), whose head it gives no way to add to: each connection
//! serves one request (no keep-alive), so its first write is its one
//! response's head, and [`Guarded`] adds the headers there when missing.

use super::board::Snapshot;
use super::pages;
use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::header::{HeaderValue, ALLOW, CACHE_CONTROL, CONTENT_TYPE};
use hyper::{Method, Request, Response, StatusCode};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{ready, Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

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
                .max_buf_size(MOST_HEAD)
                .keep_alive(false);
            let io = hyper_util::rt::TokioIo::new(Guarded::new(stream));
            let conn = builder.serve_connection(io, service);
            let _ = tokio::time::timeout(CONNECTION_LIFE, conn).await;
            drop(slot);
        });
    }
}

type Reply = Response<Full<Bytes>>;

/// The headers every response carries, beside its type.
const GUARDS: [(&str, &str); 3] = [
    ("content-security-policy", "default-src 'self'"),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),
];

fn reply(status: StatusCode, kind: &'static str, body: impl Into<Bytes>) -> Reply {
    let mut r = Response::new(Full::new(body.into()));
    *r.status_mut() = status;
    let h = r.headers_mut();
    h.insert(CONTENT_TYPE, HeaderValue::from_static(kind));
    h.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    for (name, value) in GUARDS {
        h.insert(name, HeaderValue::from_static(value));
    }
    r
}

/// `head`, the start of a connection's only response, with [`GUARDS`]
/// after its status line when it has no `Content-Security-Policy` (one
/// hyper wrote itself); `None` when it needs none.
pub fn guarded_head(head: &[u8]) -> Option<Vec<u8>> {
    if !head.starts_with(b"HTTP/1.") {
        return None;
    }
    let end = head
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or(head.len());
    let lower = head[..end].to_ascii_lowercase();
    let needle = b"\r\ncontent-security-policy:";
    if lower.windows(needle.len()).any(|w| w == needle) {
        return None;
    }
    let line = head.windows(2).position(|w| w == b"\r\n")? + 2;
    let mut out = head[..line].to_vec();
    for (name, value) in GUARDS {
        out.extend_from_slice(format!("{name}: {value}\r\n").as_bytes());
    }
    out.extend_from_slice(&head[line..]);
    Some(out)
}

/// A connection whose first write, the head of its only response, gets
/// [`GUARDS`] when it lacks them ([`guarded_head`]); the bytes added are
/// written before anything else and by the next flush.
pub struct Guarded<T> {
    io: T,
    first: bool,
    pending: Vec<u8>,
    done: usize,
}

impl<T: AsyncWrite + Unpin> Guarded<T> {
    /// `io`, nothing written yet.
    pub fn new(io: T) -> Guarded<T> {
        Guarded {
            io,
            first: true,
            pending: Vec::new(),
            done: 0,
        }
    }

    /// Writes what is pending.
    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        while self.done < self.pending.len() {
            let n = ready!(Pin::new(&mut self.io).poll_write(cx, &self.pending[self.done..]))?;
            if n == 0 {
                return Poll::Ready(Err(std::io::ErrorKind::WriteZero.into()));
            }
            self.done += n;
        }
        self.pending.clear();
        self.done = 0;
        Poll::Ready(Ok(()))
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for Guarded<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Guarded<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let this = &mut *self;
        if std::mem::take(&mut this.first) {
            if let Some(head) = guarded_head(buf) {
                this.pending = head;
                // Taken whole: what the socket does not take now goes by
                // the next write, flush or shutdown.
                if let Poll::Ready(Err(e)) = this.drain(cx) {
                    return Poll::Ready(Err(e));
                }
                return Poll::Ready(Ok(buf.len()));
            }
        }
        ready!(this.drain(cx))?;
        Pin::new(&mut this.io).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        ready!(self.drain(cx))?;
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        ready!(self.drain(cx))?;
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
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

#[cfg(test)]
mod tests {
    use super::guarded_head;

    #[test]
    fn a_head_hyper_wrote_gets_the_policy_and_ours_is_left_alone() {
        let hyper = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n";
        let fixed = String::from_utf8(guarded_head(hyper).unwrap()).unwrap();
        assert!(
            fixed.starts_with(
                "HTTP/1.1 400 Bad Request\r\ncontent-security-policy: default-src 'self'\r\n"
            ),
            "{fixed}"
        );
        assert!(fixed.ends_with("content-length: 0\r\n\r\n"), "{fixed}");
        let ours = b"HTTP/1.1 200 OK\r\nContent-Security-Policy: default-src 'self'\r\n\r\nbody";
        assert!(guarded_head(ours).is_none());
        // Only the head is looked at: a body that names the header does not count.
        let body =
            b"HTTP/1.1 431 Request Header Fields Too Large\r\n\r\n\r\ncontent-security-policy: x";
        assert!(guarded_head(body).is_some());
        assert!(guarded_head(b"<html>").is_none());
    }
}
