//! HTTP/1.1 for a local page: `httparse` reads the request head, one thread per connection,
//! one request per connection (`Connection: close`), bounded head and body, read deadlines.
//!
//! Why not `tiny_http`: its connection pool hands new connections to a queue that only idle
//! threads take, and counts idle threads with a race, so when long-lived connections (event
//! streams, a browser's keep-alive sockets) hold its threads, a new connection can wait for
//! minutes; the GUI's many-tabs test showed it. Here every connection has its own thread,
//! capped by [`MAX_CONNECTIONS`].

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Largest request head.
const MAX_HEAD: usize = 16 * 1024;
/// Largest request body (a PGN file to load).
pub const MAX_BODY: usize = 2 * 1024 * 1024;
/// Connections served at once (each an event stream or a short request); more get 503.
pub const MAX_CONNECTIONS: usize = 64;
/// A client must send its request within this time.
const READ_DEADLINE: Duration = Duration::from_secs(10);

pub struct Request {
    pub method: String,
    /// The request target: path and query.
    pub target: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn path(&self) -> &str {
        self.target.split('?').next().unwrap_or("")
    }

    pub fn query(&self, key: &str) -> Option<&str> {
        let q = self.target.split_once('?')?.1;
        q.split('&')
            .filter_map(|kv| kv.split_once('='))
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v)
    }
}

pub struct Response {
    pub status: u16,
    pub content_type: &'static str,
    pub headers: Vec<(&'static str, String)>,
    pub body: Vec<u8>,
}

impl Response {
    pub fn new(status: u16, content_type: &'static str, body: Vec<u8>) -> Response {
        Response {
            status,
            content_type,
            headers: Vec::new(),
            body,
        }
    }
}

/// What a handler does with a connection: answer once, or keep it (an event stream).
pub enum Outcome {
    Respond(Response),
    /// The handler took the stream (it has written its own head).
    Taken,
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        413 => "Payload Too Large",
        415 => "Unsupported Media Type",
        422 => "Unprocessable Entity",
        431 => "Request Header Fields Too Large",
        501 => "Not Implemented",
        503 => "Service Unavailable",
        _ => "Error",
    }
}

/// Headers on every response: no caching, no sniffing, no framing, only our own resources.
pub const COMMON_HEADERS: &str = "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\
     X-Frame-Options: DENY\r\nReferrer-Policy: no-referrer\r\nContent-Security-Policy: \
     default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'\r\n";

pub fn write_response(stream: &mut TcpStream, r: &Response) -> std::io::Result<()> {
    let mut head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n{COMMON_HEADERS}",
        r.status,
        reason(r.status),
        r.content_type,
        r.body.len()
    );
    for (k, v) in &r.headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes())?;
    stream.write_all(&r.body)?;
    stream.flush()
}

fn error_response(status: u16, msg: &str) -> Response {
    let body = serde_json::json!({ "error": msg }).to_string().into_bytes();
    Response::new(status, "application/json", body)
}

/// Reads one request; an error is the response to send instead.
pub fn read_request(stream: &mut TcpStream) -> Result<Request, Response> {
    let _ = stream.set_read_timeout(Some(READ_DEADLINE));
    let mut buf = Vec::with_capacity(2048);
    let mut chunk = [0u8; 4096];
    let (head_len, method, target, headers) = loop {
        let n = match stream.read(&mut chunk) {
            Ok(0) => return Err(error_response(400, "the request ended early")),
            Ok(n) => n,
            Err(_) => return Err(error_response(408, "no complete request in time")),
        };
        buf.extend_from_slice(&chunk[..n]);
        let mut hs = [httparse::EMPTY_HEADER; 64];
        let mut req = httparse::Request::new(&mut hs);
        match req.parse(&buf) {
            Ok(httparse::Status::Complete(len)) => {
                let headers = req
                    .headers
                    .iter()
                    .map(|h| {
                        (
                            h.name.to_string(),
                            String::from_utf8_lossy(h.value).into_owned(),
                        )
                    })
                    .collect::<Vec<_>>();
                break (
                    len,
                    req.method.unwrap_or("").to_string(),
                    req.path.unwrap_or("").to_string(),
                    headers,
                );
            }
            Ok(httparse::Status::Partial) if buf.len() <= MAX_HEAD => continue,
            Ok(httparse::Status::Partial) => {
                return Err(error_response(431, "request head too large"))
            }
            Err(e) => return Err(error_response(400, &format!("bad request: {e}"))),
        }
    };
    let mut request = Request {
        method,
        target,
        headers,
        body: Vec::new(),
    };
    if request.header("Transfer-Encoding").is_some() {
        return Err(error_response(
            501,
            "chunked request bodies are not supported",
        ));
    }
    let len = match request.header("Content-Length") {
        None => 0,
        Some(v) => v
            .trim()
            .parse::<usize>()
            .map_err(|_| error_response(400, "bad Content-Length"))?,
    };
    if len > MAX_BODY {
        return Err(error_response(
            413,
            &format!("body larger than {MAX_BODY} bytes"),
        ));
    }
    let mut body = buf.split_off(head_len);
    while body.len() < len {
        let n = stream
            .read(&mut chunk)
            .map_err(|_| error_response(408, "the body did not come in time"))?;
        if n == 0 {
            return Err(error_response(400, "the body ended early"));
        }
        body.extend_from_slice(&chunk[..n]);
    }
    body.truncate(len);
    request.body = body;
    Ok(request)
}

/// Accepts connections until `stop`, each on its own thread, handled by `handler`.
pub fn serve<H>(listener: TcpListener, stop: Arc<AtomicBool>, handler: H)
where
    H: Fn(Request, &mut TcpStream) -> Outcome + Send + Sync + 'static,
{
    let handler = Arc::new(handler);
    let active = Arc::new(AtomicUsize::new(0));
    for conn in listener.incoming() {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let Ok(mut stream) = conn else { continue };
        if active.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
            active.fetch_sub(1, Ordering::SeqCst);
            let _ = write_response(&mut stream, &error_response(503, "too many connections"));
            continue;
        }
        let (handler, active2) = (handler.clone(), active.clone());
        let spawned = std::thread::Builder::new()
            .name("gui-conn".into())
            .spawn(move || {
                let outcome = match read_request(&mut stream) {
                    Ok(req) => handler(req, &mut stream),
                    Err(resp) => Outcome::Respond(resp),
                };
                if let Outcome::Respond(resp) = outcome {
                    let _ = write_response(&mut stream, &resp);
                    let _ = stream.shutdown(Shutdown::Write);
                }
                active2.fetch_sub(1, Ordering::SeqCst);
            });
        if spawned.is_err() {
            active.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

pub fn json_error(status: u16, msg: &str) -> Response {
    error_response(status, msg)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;

    fn roundtrip(raw: &[u8]) -> Result<Request, Response> {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = l.local_addr().unwrap();
        let raw = raw.to_vec();
        let t = std::thread::spawn(move || {
            let mut c = TcpStream::connect(addr).unwrap();
            c.write_all(&raw).unwrap();
            std::thread::sleep(Duration::from_millis(50));
        });
        let (mut s, _) = l.accept().unwrap();
        let r = read_request(&mut s);
        t.join().unwrap();
        r
    }

    #[test]
    fn requests_are_read_with_their_bodies_and_bad_ones_refused() {
        let r =
            roundtrip(b"POST /api/move?x=1 HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhello")
                .ok()
                .unwrap();
        assert_eq!((r.method.as_str(), r.path()), ("POST", "/api/move"));
        assert_eq!(r.query("x"), Some("1"));
        assert_eq!(r.header("host"), Some("h"));
        assert_eq!(r.body, b"hello");
        let status = |raw: &[u8]| roundtrip(raw).err().map(|r| r.status);
        assert_eq!(status(b"\x00\x01 garbage\r\n\r\n"), Some(400));
        assert_eq!(
            status(b"GET / HTTP/1.1\r\nContent-Length: x\r\n\r\n"),
            Some(400)
        );
        assert_eq!(
            status(b"POST / HTTP/1.1\r\nContent-Length: 99999999\r\n\r\n"),
            Some(413)
        );
        assert_eq!(
            status(b"POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"),
            Some(501)
        );
        assert_eq!(status(b"GET / HTTP/1.1\r\n"), Some(400));
    }
}
