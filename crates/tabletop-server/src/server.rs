//! The HTTP side: the WebSocket at `/`, the browser app at `/` and its files for plain
//! GETs ([`crate::web`]), a health check (`/health`), and the [`Server`] handle that
//! starts and stops it all.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::State;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::http::{HeaderMap, Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::serve::ListenerExt;
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use crate::bots::BotPool;
use crate::config::Config;
use crate::hub::{Hub, HubError};
use crate::session::{self, Limits};
use crate::store::{Store, StoreError};
use crate::web::WebApp;

/// Why a server could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The database could not be opened or migrated.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A stored table could not be brought back.
    #[error("restoring tables: {0}")]
    Restore(#[from] HubError),
    /// The address could not be listened on.
    #[error("cannot listen on {0}: {1}")]
    Listen(SocketAddr, std::io::Error),
}

#[derive(Clone)]
struct AppState {
    hub: Arc<Hub>,
    limits: Limits,
    max_message: usize,
    web: Arc<WebApp>,
}

/// A running server.
#[derive(Debug)]
pub struct Server {
    addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<()>,
}

impl Server {
    /// Opens the database (applying migrations), listens, brings back every unfinished
    /// table (in the background: a table asked for meanwhile is loaded first), and
    /// serves on a task of the current Tokio runtime, with the browser app embedded in
    /// the binary.
    pub async fn start(config: Config) -> Result<Server, StartError> {
        Server::start_with(config, WebApp::Embedded).await
    }

    /// Starts like [`Server::start`], serving the browser app from `web`.
    pub async fn start_with(config: Config, web: WebApp) -> Result<Server, StartError> {
        let node = crate::identity::new_id("n");
        let store = Store::open(&crate::cluster::named(&config.database, &node)).await?;
        let mut hub = Hub::new(store, BotPool::new(config.bot_threads), config.grace_ms);
        crate::cluster::join(&mut hub, node, config.lease_ms);
        let hub = Arc::new(hub);
        crate::cluster::run(&hub);
        let listener = TcpListener::bind(config.listen)
            .await
            .map_err(|e| StartError::Listen(config.listen, e))?;
        let addr = listener
            .local_addr()
            .map_err(|e| StartError::Listen(config.listen, e))?;
        // Tables come back after the server listens: a client opening one not back yet
        // waits for that table alone, and it runs whole or not at all.
        let restoring = hub.clone();
        tokio::spawn(async move {
            match restoring.restore().await {
                Ok(restored) => tracing::info!(restored, "tables restored"),
                Err(e) => tracing::error!("restoring tables: {e}"),
            }
        });
        let state = AppState {
            hub,
            limits: Limits {
                per_second: config.messages_per_second,
                burst: config.message_burst,
            },
            max_message: config.max_message_bytes,
            web: Arc::new(web),
        };
        let app = Router::new()
            .route("/", get(root))
            .route("/health", get(|| async { "ok\n" }))
            .fallback(file)
            .with_state(state);
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            // No Nagle: each message is small and wanted at once.
            let listener = listener.tap_io(|tcp| {
                let _ = tcp.set_nodelay(true);
            });
            let served = axum::serve(listener, app)
                .with_graceful_shutdown(async {
                    let _ = stopped.await;
                })
                .await;
            if let Err(e) = served {
                tracing::error!("server: {e}");
            }
        });
        tracing::info!(%addr, "listening");
        Ok(Server {
            addr,
            stop: Some(stop),
            task,
        })
    }

    /// The address it listens on (with the port picked for port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// Stops accepting connections and waits for the open ones to end.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let _ = (&mut self.task).await;
    }

    /// Waits until the server stops (it runs until [`Server::stop`] or an error).
    pub async fn wait(&mut self) {
        let _ = (&mut self.task).await;
    }
}

/// `/`: the WebSocket of the protocol when the request asks for an upgrade, else the app.
async fn root(
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Response {
    match ws {
        Ok(ws) => upgrade(ws, state),
        // A request that asks for an upgrade and gets it wrong hears why.
        Err(rejection) if headers.contains_key(header::UPGRADE) => rejection.into_response(),
        Err(_) => state.web.get("/", &headers).await,
    }
}

/// Any other path: a file of the app (GET or HEAD), else 404.
async fn file(
    method: Method,
    uri: Uri,
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Response {
    if method != Method::GET && method != Method::HEAD {
        return StatusCode::METHOD_NOT_ALLOWED.into_response();
    }
    state.web.get(uri.path(), &headers).await
}

fn upgrade(ws: WebSocketUpgrade, state: AppState) -> Response {
    // Small buffers: messages are small, and tungstenite's defaults (128 KiB each way)
    // would cost 256 KiB a connection, 500 MB for 1,000 games of two players.
    ws.max_message_size(state.max_message)
        .max_frame_size(state.max_message)
        .read_buffer_size(4096)
        .write_buffer_size(4096)
        .max_write_buffer_size(state.max_message.max(4096) * 4)
        .on_upgrade(move |socket| session::run(socket, state.hub, state.limits))
}
