//! The network transport: QUIC over `iroh`, peer to peer with hole punching and relay fallback.
//!
//! A [`Quic`] owns a tokio runtime on threads of its own and an `iroh` endpoint. Each connection
//! carries one bidirectional stream; a task reads it into frames with [`FrameReader`] (a length is
//! checked before its body is stored) and puts them in a bounded channel, another drains a bounded
//! channel of outgoing frames onto it. The [`Transport`] side takes from and puts in those channels
//! without waiting, and serves the peers in turn, as [`crate::local`] does.
//!
//! A peer's [`PeerId`] is the first 8 bytes of its endpoint key, so a player who comes back with
//! the same key (`Options::key`) is the same peer to the host and takes its seat back at once.
//!
//! The host prints a [`Ticket`]: its endpoint key, its direct addresses and its home relay, as a
//! short text to paste. With [`Relay::Disabled`] nothing is contacted but the addresses dialled:
//! no relay, no address lookup (DNS, pkarr), no port mapping, no network report probes.

use std::collections::{BTreeMap, VecDeque};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use iroh::endpoint::{
    Connection, ConnectionError, IdleTimeout, NetReportConfig, PortmapperConfig,
    QuicTransportConfig, RecvStream, SendStream, presets,
};
use iroh::{Endpoint, EndpointAddr, EndpointId, RelayMode, RelayUrl, SecretKey, TransportAddr};
use serde::{Deserialize, Serialize};
use tokio::runtime::{Handle, Runtime};
use tokio::sync::mpsc::error::{TryRecvError, TrySendError};
use tokio::sync::{Notify, Semaphore, mpsc};

use crate::codec::{self, FrameReader, MAX_FRAME};
use crate::message::{Message, PeerId};
use crate::transport::{Event, SendError, Transport};

/// The application protocol both ends must speak.
pub const ALPN: &[u8] = b"foehold/1";
/// Frames each way of one connection: with frames of at most 64 KiB, a connection holds at most
/// 4 MiB of each way's frames, and the host's [`MAX_CONNECTIONS`] at most 128 MiB.
pub const QUEUE: usize = 64;
/// The most connections open at once; more are refused before their handshake.
pub const MAX_CONNECTIONS: usize = 32;
/// The longest join code read.
pub const MAX_CODE: usize = 400;
/// The most direct addresses a ticket holds.
pub const MAX_ADDRS: usize = 8;
/// The longest relay address a ticket holds.
const MAX_RELAY_URL: usize = 200;
/// Connections announced but not yet taken by `poll`.
const JOIN_QUEUE: usize = 32;
/// Bytes read from a stream at once.
const READ_CHUNK: usize = 16 * 1024;
/// A handshake, or the first stream of a connection, that takes longer is dropped.
const HANDSHAKE: Duration = Duration::from_secs(20);
/// How long a closing link waits for the peer to read what was queued.
const LINGER: Duration = Duration::from_secs(2);
/// How long a peer waits for the next host to take its connection.
const DIAL: Duration = Duration::from_secs(60);
/// A connection silent for this long is closed.
const IDLE: Duration = Duration::from_secs(10);
/// How often an idle connection says it is there.
const KEEP_ALIVE: Duration = Duration::from_secs(2);
/// How long a connection that a second one with the same key would replace is watched: one
/// that hears nothing from its peer in this time (past a keep-alive) is gone, and the second one
/// replaces it; otherwise the second one is refused.
const PROBE: Duration = Duration::from_millis(3000);
/// The close code of a connection another one with the same key replaced.
const REPLACED: u32 = 2;
/// The most notes kept.
const MAX_NOTES: usize = 64;
/// What starts a join code.
const CODE_PREFIX: &str = "FH";

/// Whether to use relay servers and address lookup.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relay {
    /// `iroh`'s default relays and address lookup: friends behind NATs find each other with no
    /// port forwarding.
    Default,
    /// Direct addresses only, and nothing contacted but them (tests, a local network).
    Disabled,
}

/// How to set up an endpoint.
#[derive(Debug, Clone)]
pub struct Options {
    /// Relays and address lookup.
    pub relay: Relay,
    /// The address to bind; `None` binds every interface (IPv4 and IPv6) on a free port.
    pub bind: Option<SocketAddr>,
    /// The endpoint's secret key; `None` makes a new one.
    pub key: Option<[u8; 32]>,
}

impl Options {
    /// Loopback only, no relay: what the tests use.
    pub fn loopback() -> Options {
        Options {
            relay: Relay::Disabled,
            bind: Some(SocketAddr::from(([127, 0, 0, 1], 0))),
            key: None,
        }
    }
}

/// Why the network cannot be used, in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(pub String);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

fn error(what: &str, e: impl std::fmt::Display) -> Error {
    Error(format!("{what}: {e}"))
}

/// The peer id of an endpoint key.
pub fn peer_of(id: &EndpointId) -> PeerId {
    let mut first = [0; 8];
    first.copy_from_slice(&id.as_bytes()[..8]);
    PeerId(u64::from_be_bytes(first))
}

/// A new secret key, for a player who wants to keep it (`Options::key`).
pub fn new_key() -> [u8; 32] {
    SecretKey::generate().to_bytes()
}

/// What a join code holds, as it is encoded.
#[derive(Debug, Serialize, Deserialize)]
struct Code {
    id: [u8; 32],
    addrs: Vec<SocketAddr>,
    relay: Option<String>,
}

/// Where a host is: its key, direct addresses and home relay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ticket {
    addr: EndpointAddr,
}

impl Ticket {
    /// The host's peer id.
    pub fn peer(&self) -> PeerId {
        peer_of(&self.addr.id)
    }

    /// The host's endpoint address, for `iroh`.
    pub fn endpoint_addr(&self) -> &EndpointAddr {
        &self.addr
    }

    /// The direct addresses.
    pub fn addrs(&self) -> Vec<SocketAddr> {
        self.addr.ip_addrs().copied().collect()
    }

    /// The join code: `FH` and the ticket in base32.
    pub fn code(&self) -> String {
        let code = Code {
            id: *self.addr.id.as_bytes(),
            addrs: self.addrs().into_iter().take(MAX_ADDRS).collect(),
            relay: self.addr.relay_urls().next().map(ToString::to_string),
        };
        let bytes = postcard::to_allocvec(&code).unwrap_or_default();
        format!(
            "{CODE_PREFIX}{}",
            data_encoding::BASE32_NOPAD.encode(&bytes)
        )
    }

    /// The ticket in a join code (spaces around it and letter case do not matter).
    pub fn parse(text: &str) -> Result<Ticket, Error> {
        let text = text.trim();
        if text.len() > MAX_CODE {
            return Err(Error(format!(
                "a join code of {} characters: they have at most {MAX_CODE}",
                text.len()
            )));
        }
        let upper = text.to_ascii_uppercase();
        let Some(body) = upper.strip_prefix(CODE_PREFIX) else {
            return Err(Error(format!(
                "not a join code: it starts with `{CODE_PREFIX}`"
            )));
        };
        let bytes = data_encoding::BASE32_NOPAD
            .decode(body.as_bytes())
            .map_err(|e| error("not a join code (a character is wrong or missing)", e))?;
        let code: Code = codec::decode_body(&bytes)
            .map_err(|e| error("not a join code (a character is wrong or missing)", e))?;
        if code.addrs.len() > MAX_ADDRS {
            return Err(Error(format!(
                "a join code with {} addresses: at most {MAX_ADDRS}",
                code.addrs.len()
            )));
        }
        let id = EndpointId::from_bytes(&code.id)
            .map_err(|e| error("the join code's host key is not a key", e))?;
        let mut addrs: Vec<TransportAddr> = code.addrs.into_iter().map(TransportAddr::Ip).collect();
        if let Some(url) = code.relay {
            if url.len() > MAX_RELAY_URL {
                return Err(Error("the join code's relay address is too long".into()));
            }
            let url: RelayUrl = url
                .parse()
                .map_err(|e| error("the join code's relay address is not one", e))?;
            addrs.push(TransportAddr::Relay(url));
        }
        if addrs.is_empty() {
            return Err(Error(
                "the join code holds no address to reach the host".into(),
            ));
        }
        Ok(Ticket {
            addr: EndpointAddr::from_parts(id, addrs),
        })
    }
}

/// A connection as the transport side holds it.
#[derive(Debug)]
struct Link {
    tx: mpsc::Sender<Vec<u8>>,
    rx: mpsc::Receiver<Vec<u8>>,
}

/// A connection announced by the runtime, or a peer dialled that could not be reached.
#[derive(Debug)]
enum Joined {
    Link(PeerId, Link),
    Unreachable(PeerId),
}

/// Handles the runtime's tasks share.
#[derive(Debug, Clone)]
struct Shared {
    joins: mpsc::Sender<Joined>,
    /// The open connection of each peer, to tell a second one with the same key from a peer
    /// that comes back after its old connection died.
    open: Arc<Mutex<BTreeMap<PeerId, Connection>>>,
    /// Woken at every frame or connection, so that [`Quic::wait`] returns at once.
    wake: Arc<Notify>,
    notes: Arc<Mutex<VecDeque<String>>>,
}

impl Shared {
    fn note(&self, note: String) {
        if let Ok(mut notes) = self.notes.lock() {
            if notes.len() == MAX_NOTES {
                notes.pop_front();
            }
            notes.push_back(note);
        }
    }
}

/// A QUIC endpoint behind the [`Transport`] trait.
#[derive(Debug)]
pub struct Quic {
    id: PeerId,
    relay: Relay,
    /// Taken when the endpoint is dropped, to shut it down.
    runtime: Option<Runtime>,
    handle: Handle,
    endpoint: Endpoint,
    shared: Shared,
    joins: mpsc::Receiver<Joined>,
    links: BTreeMap<PeerId, Link>,
    last: Option<PeerId>,
    /// Whether connections are taken (a host's, or a peer's that continues as host).
    accepting: bool,
}

impl Quic {
    /// An endpoint that accepts connections: the host's.
    pub fn host(options: &Options) -> Result<Quic, Error> {
        let mut quic = Quic::bind(options)?;
        quic.start_accepting();
        Ok(quic)
    }

    fn start_accepting(&mut self) {
        if !self.accepting {
            self.accepting = true;
            let endpoint = self.endpoint.clone();
            let shared = self.shared.clone();
            self.handle().spawn(accept_loop(endpoint, shared));
        }
    }

    /// An endpoint connected to the host of `ticket`, waiting at most `wait` for the connection.
    pub fn join(ticket: &Ticket, options: &Options, wait: Duration) -> Result<Quic, Error> {
        let quic = Quic::bind(options)?;
        let endpoint = quic.endpoint.clone();
        let addr = ticket.addr.clone();
        let connected = quic.block_on(async move {
            match tokio::time::timeout(wait, open(&endpoint, addr)).await {
                Ok(r) => r,
                Err(_) => Err(Error(format!(
                    "the host did not answer within {} s",
                    wait.as_secs()
                ))),
            }
        })?;
        let (conn, send, recv) = connected;
        let shared = quic.shared.clone();
        quic.handle().spawn(async move {
            let peer = peer_of(&conn.remote_id());
            run_link(peer, conn, send, recv, shared).await;
        });
        Ok(quic)
    }

    fn bind(options: &Options) -> Result<Quic, Error> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("foehold-net")
            .enable_all()
            .build()
            .map_err(|e| error("cannot start the network threads", e))?;
        let mut builder = match options.relay {
            Relay::Default => Endpoint::builder(presets::N0),
            // Nothing but the addresses dialled: no relay, no lookup, no probes of the gateway.
            Relay::Disabled => Endpoint::builder(presets::Minimal)
                .relay_mode(RelayMode::Disabled)
                .clear_address_lookup()
                .portmapper_config(PortmapperConfig::Disabled)
                .net_report_config(NetReportConfig::minimal()),
        };
        builder = builder
            .alpns(vec![ALPN.to_vec()])
            .transport_config(transport_config());
        if let Some(key) = options.key {
            builder = builder.secret_key(SecretKey::from_bytes(&key));
        }
        if let Some(addr) = options.bind {
            builder = builder
                .clear_ip_transports()
                .bind_addr(addr)
                .map_err(|e| error(&format!("cannot bind {addr}"), e))?;
        }
        let endpoint = runtime
            .block_on(builder.bind())
            .map_err(|e| error("cannot open the network endpoint", e))?;
        let (joins_tx, joins) = mpsc::channel(JOIN_QUEUE);
        let shared = Shared {
            joins: joins_tx,
            open: Arc::new(Mutex::new(BTreeMap::new())),
            wake: Arc::new(Notify::new()),
            notes: Arc::new(Mutex::new(VecDeque::new())),
        };
        Ok(Quic {
            id: peer_of(&endpoint.id()),
            relay: options.relay,
            handle: runtime.handle().clone(),
            runtime: Some(runtime),
            endpoint,
            shared,
            joins,
            links: BTreeMap::new(),
            last: None,
            accepting: false,
        })
    }

    fn handle(&self) -> &Handle {
        &self.handle
    }

    fn block_on<F: Future>(&self, future: F) -> F::Output {
        self.handle().block_on(future)
    }

    /// The ticket to reach this endpoint: with relays on, it waits at most `wait` for the home
    /// relay, so that the ticket names it.
    pub fn ticket(&self, wait: Duration) -> Ticket {
        let endpoint = self.endpoint.clone();
        let relays = self.relay == Relay::Default;
        self.block_on(async move {
            let deadline = Instant::now() + wait;
            // With relays, the home relay; without, the bound addresses, known at once.
            if relays {
                let _ = tokio::time::timeout(wait, endpoint.online()).await;
            }
            loop {
                let addr = endpoint.addr();
                if addr.ip_addrs().next().is_some() || Instant::now() >= deadline {
                    return Ticket { addr };
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        })
    }

    /// Waits at most `timeout` for something to happen on the network (a frame, a connection).
    pub fn wait(&self, timeout: Duration) {
        let wake = self.shared.wake.clone();
        self.block_on(async move {
            let _ = tokio::time::timeout(timeout, wake.notified()).await;
        });
    }

    /// What went wrong with connections (malformed streams, failed handshakes), oldest first;
    /// taking them empties the list.
    pub fn take_notes(&self) -> Vec<String> {
        self.shared
            .notes
            .lock()
            .map(|mut n| n.drain(..).collect())
            .unwrap_or_default()
    }
}

impl Drop for Quic {
    fn drop(&mut self) {
        // Close every connection so the peers hear of it now rather than at their idle timeout.
        self.links.clear();
        if let Some(runtime) = self.runtime.take() {
            let endpoint = self.endpoint.clone();
            runtime.block_on(async move {
                let _ = tokio::time::timeout(LINGER, endpoint.close()).await;
            });
            runtime.shutdown_timeout(Duration::from_millis(200));
        }
    }
}

impl Transport for Quic {
    fn id(&self) -> PeerId {
        self.id
    }

    fn send(&mut self, to: PeerId, frame: Vec<u8>) -> Result<(), SendError> {
        if frame.len() > MAX_FRAME {
            return Err(SendError::TooLarge);
        }
        let link = self.links.get(&to).ok_or(SendError::Gone)?;
        match link.tx.try_send(frame) {
            Ok(()) => Ok(()),
            Err(TrySendError::Full(_)) => Err(SendError::Full),
            Err(TrySendError::Closed(_)) => Err(SendError::Gone),
        }
    }

    fn poll(&mut self) -> Option<Event> {
        match self.joins.try_recv() {
            Ok(Joined::Link(peer, link)) => {
                // A peer that connects again replaces its old connection, which closes.
                self.links.insert(peer, link);
                return Some(Event::Joined(peer));
            }
            Ok(Joined::Unreachable(peer)) => return Some(Event::Left(peer)),
            Err(_) => {}
        }
        let order = crate::transport::in_turn(&self.links, self.last);
        for peer in order {
            let Some(link) = self.links.get_mut(&peer) else {
                continue;
            };
            match link.rx.try_recv() {
                Ok(frame) => {
                    self.last = Some(peer);
                    return Some(Event::Frame(peer, frame));
                }
                Err(TryRecvError::Empty) => {}
                Err(TryRecvError::Disconnected) => {
                    self.links.remove(&peer);
                    return Some(Event::Left(peer));
                }
            }
        }
        None
    }

    fn close(&mut self, peer: PeerId) {
        // Dropping the link ends its writer, which delivers what was queued and closes.
        self.links.remove(&peer);
    }

    fn contact(&self) -> Option<String> {
        // The addresses known now: a peer that joined has its home relay by then, if any.
        Some(
            Ticket {
                addr: self.endpoint.addr(),
            }
            .code(),
        )
    }

    fn accept(&mut self) -> Result<(), String> {
        self.start_accepting();
        Ok(())
    }

    fn dial(&mut self, contact: &str) -> Result<PeerId, String> {
        let ticket = Ticket::parse(contact).map_err(|e| e.0)?;
        let peer = ticket.peer();
        let endpoint = self.endpoint.clone();
        let shared = self.shared.clone();
        self.handle().spawn(async move {
            // The next host may learn that the old one is gone a little after this end: its
            // endpoint holds the connection until it takes connections, within this wait.
            match tokio::time::timeout(DIAL, open(&endpoint, ticket.addr)).await {
                Ok(Ok((conn, send, recv))) => run_link(peer, conn, send, recv, shared).await,
                failed => {
                    let why = match failed {
                        Ok(Err(e)) => e.0,
                        _ => format!("no answer within {} s", DIAL.as_secs()),
                    };
                    shared.note(format!("the next host cannot be reached: {why}"));
                    let _ = shared.joins.send(Joined::Unreachable(peer)).await;
                    shared.wake.notify_one();
                }
            }
        });
        Ok(peer)
    }
}

/// Connects to an endpoint and opens the connection's stream.
async fn open(
    endpoint: &Endpoint,
    addr: EndpointAddr,
) -> Result<(Connection, SendStream, RecvStream), Error> {
    let conn = endpoint
        .connect(addr, ALPN)
        .await
        .map_err(|e| error("cannot reach the host", e))?;
    let (send, recv) = conn
        .open_bi()
        .await
        .map_err(|e| error("the host's connection broke", e))?;
    Ok((conn, send, recv))
}

/// QUIC's settings: a connection whose other end says nothing for [`IDLE`] is closed, so that a
/// host that crashed is known gone (and a crashed player's seat freed) within seconds, and each
/// end sends a keep-alive every [`KEEP_ALIVE`] while idle.
fn transport_config() -> QuicTransportConfig {
    let mut builder = QuicTransportConfig::builder().keep_alive_interval(KEEP_ALIVE);
    if let Ok(idle) = IdleTimeout::try_from(IDLE) {
        builder = builder.max_idle_timeout(Some(idle));
    }
    builder.build()
}

/// Accepts connections, each in a task of its own, at most [`MAX_CONNECTIONS`] at once.
async fn accept_loop(endpoint: Endpoint, shared: Shared) {
    let limit = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    while let Some(incoming) = endpoint.accept().await {
        let Ok(permit) = limit.clone().try_acquire_owned() else {
            incoming.refuse();
            continue;
        };
        let shared = shared.clone();
        tokio::spawn(async move {
            let _permit = permit;
            let accepted = tokio::time::timeout(HANDSHAKE, async {
                let conn = incoming.await.map_err(|e| e.to_string())?;
                let (send, recv) = conn.accept_bi().await.map_err(|e| e.to_string())?;
                Ok::<_, String>((conn, send, recv))
            })
            .await;
            match accepted {
                Ok(Ok((conn, mut send, recv))) => {
                    let peer = peer_of(&conn.remote_id());
                    if let Some(old) = alive_twin(&shared, peer).await {
                        // One copy of a player: the first connection, alive, keeps its seat.
                        let bye = Message::Bye {
                            reason: "another program with this player's key is connected: \
                                     a second one is refused"
                                .into(),
                        };
                        if let Ok(frame) = codec::encode(&bye) {
                            let _ = send.write_all(&frame).await;
                        }
                        let _ = send.finish();
                        shared.note(format!(
                            "peer {}: a second connection with its key refused (the first is \
                             alive, {} datagrams in {} ms)",
                            peer.0,
                            old,
                            PROBE.as_millis()
                        ));
                        tokio::time::sleep(LINGER).await;
                        conn.close(1u32.into(), b"refused");
                        return;
                    }
                    run_link(peer, conn, send, recv, shared).await;
                }
                Ok(Err(e)) => shared.note(format!("a connection failed: {e}")),
                Err(_) => shared.note("a connection took too long to open".into()),
            }
        });
    }
}

/// When `peer` already has an open connection, watches it for [`PROBE`]: `Some(datagrams heard)`
/// when it is alive (the new connection is refused), `None` when it is gone or there is none, in
/// which case the old one is closed as replaced.
async fn alive_twin(shared: &Shared, peer: PeerId) -> Option<u64> {
    let old = shared.open.lock().ok()?.get(&peer).cloned()?;
    if old.close_reason().is_some() {
        return None;
    }
    let before = old.stats().udp_rx.datagrams;
    tokio::time::sleep(PROBE).await;
    let heard = old.stats().udp_rx.datagrams.saturating_sub(before);
    if heard > 0 && old.close_reason().is_none() {
        return Some(heard);
    }
    old.close(REPLACED.into(), b"replaced");
    None
}

/// Carries one connection's stream until either side ends it.
async fn run_link(
    peer: PeerId,
    conn: Connection,
    send: SendStream,
    recv: RecvStream,
    shared: Shared,
) {
    let (out_tx, out_rx) = mpsc::channel(QUEUE);
    let (in_tx, in_rx) = mpsc::channel(QUEUE);
    let link = Link {
        tx: out_tx,
        rx: in_rx,
    };
    if let Ok(mut open) = shared.open.lock() {
        open.insert(peer, conn.clone());
    }
    if shared.joins.send(Joined::Link(peer, link)).await.is_err() {
        return;
    }
    shared.wake.notify_one();
    let reader = async {
        if let Err(e) = read_loop(recv, &in_tx, &shared.wake).await {
            shared.note(format!("peer {}: {e}: disconnected", peer.0));
            conn.close(1u32.into(), b"malformed");
        }
        // The other end closed this connection because a newer one with this end's key took its
        // place: this program is a second copy, and says so rather than take the host for gone.
        if let Some(ConnectionError::ApplicationClosed(close)) = conn.close_reason()
            && close.error_code == REPLACED.into()
        {
            let removed = Message::Removed {
                reason: "another program with this player's key took its place".into(),
            };
            if let Ok(frame) = codec::encode(&removed) {
                let _ = in_tx.send(frame).await;
            }
        }
        drop(in_tx);
        shared.wake.notify_one();
    };
    let writer = async {
        write_loop(send, out_rx).await;
        conn.close(0u32.into(), b"bye");
    };
    tokio::join!(reader, writer);
    if let Ok(mut open) = shared.open.lock()
        && open
            .get(&peer)
            .is_some_and(|c| c.stable_id() == conn.stable_id())
    {
        open.remove(&peer);
    }
}

/// Splits the stream into frames; an error means the stream cannot be trusted any more.
async fn read_loop(
    mut recv: RecvStream,
    tx: &mpsc::Sender<Vec<u8>>,
    wake: &Notify,
) -> Result<(), String> {
    let mut reader = FrameReader::new();
    let mut buf = vec![0; READ_CHUNK];
    loop {
        match recv.read(&mut buf).await {
            Ok(Some(n)) => {
                let bodies = reader.push(&buf[..n]).map_err(|e| e.to_string())?;
                for body in bodies {
                    let frame = codec::frame(&body).map_err(|e| e.to_string())?;
                    // A full channel slows this reader, and the peer by its stream's flow control.
                    if tx.send(frame).await.is_err() {
                        return Ok(());
                    }
                    wake.notify_one();
                }
            }
            // The peer finishing its stream or closing its connection is the usual way a link
            // ends.
            Ok(None) | Err(_) => return Ok(()),
        }
    }
}

/// Writes queued frames until the transport side drops the link, then finishes the stream and
/// waits a moment for the peer to read it.
async fn write_loop(mut send: SendStream, mut rx: mpsc::Receiver<Vec<u8>>) {
    while let Some(frame) = rx.recv().await {
        if send.write_all(&frame).await.is_err() {
            return;
        }
    }
    let _ = send.finish();
    let _ = tokio::time::timeout(LINGER, send.stopped()).await;
}

/// Asks the host for its scenario file's text, until `deadline`: what a table joining a game does
/// before it knows the game's rules.
pub fn fetch_scenario(quic: &mut Quic, host: PeerId, deadline: Instant) -> Result<String, String> {
    // How long the network is left quiet before the loop looks again.
    const TICK: Duration = Duration::from_millis(50);
    let ask = codec::encode(&Message::GetScenario).map_err(|e| e.to_string())?;
    let mut asked = false;
    loop {
        if Instant::now() >= deadline {
            return Err("the host did not send its scenario in time".into());
        }
        if !asked {
            asked = quic.send(host, ask.clone()).is_ok();
        }
        let Some(event) = quic.poll() else {
            quic.wait(TICK);
            continue;
        };
        match event {
            Event::Frame(p, frame) if p == host => match codec::decode(&frame) {
                Ok(Message::Scenario { text }) => return Ok(text),
                Ok(Message::Bye { reason }) => return Err(format!("the host says: {reason}")),
                Ok(Message::Reject { reason, .. }) => {
                    return Err(format!("the host refuses: {reason}"));
                }
                Ok(_) => {}
                Err(e) => return Err(format!("a message from the host is refused: {e}")),
            },
            Event::Left(p) if p == host => return Err("the host closed the connection".into()),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_join_code_round_trips_and_garbage_is_refused() {
        let id = SecretKey::generate().public();
        let ticket = Ticket {
            addr: EndpointAddr::from_parts(
                id,
                [TransportAddr::Ip(SocketAddr::from(([127, 0, 0, 1], 4242)))],
            ),
        };
        let code = ticket.code();
        assert!(code.len() < 100, "{code}");
        assert_eq!(Ticket::parse(&code), Ok(ticket.clone()));
        assert_eq!(
            Ticket::parse(&format!("  {}\n", code.to_lowercase())),
            Ok(ticket)
        );
        for bad in [
            "",
            "FH",
            "hello",
            "FH!!!!",
            &code[..code.len() - 3],
            &format!("{code}AAAA"),
            &"FH".repeat(300),
        ] {
            let e = Ticket::parse(bad).unwrap_err();
            assert!(!e.0.is_empty());
        }
        // Every truncation is refused, none panics.
        for n in 0..code.len() {
            let _ = Ticket::parse(&code[..n]);
        }
    }
}
