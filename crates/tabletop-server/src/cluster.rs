//! Several servers on one PostgreSQL database. Each follows the tables its clients
//! open; one server at a time — the holder of the table's lease in the database — owns a
//! table: it applies its actions and claims and runs its bots and clock. Another server
//! forwards its clients' commands to the owner ([`crate::forward`]). Every stored change
//! is notified through PostgreSQL (`LISTEN tabletop`), and the other servers' rooms
//! catch up from the database. A server renews its leases three times a lease; when it
//! dies — its connections to the database end, or at the latest its leases run out —
//! the others take its tables over from the log.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use sqlx::postgres::PgListener;
use tokio::sync::oneshot;

use crate::hub::Hub;
use crate::room::RoomMsg;

/// This server among those sharing the database.
#[derive(Debug)]
pub struct Node {
    /// Its name (its heartbeat is the lease `node:NAME`).
    pub name: String,
    /// How long its leases last (ms).
    pub lease_ms: u64,
    /// The commands it forwarded, waiting for their answers: by forward id.
    pub pending: Mutex<HashMap<String, oneshot::Sender<String>>>,
    /// Whether another server lives on the database: only then is presence stored
    /// (alone, a server's own connections are all there is).
    pub others: AtomicBool,
}

/// The database URL with which server `node` connects: on PostgreSQL its connections
/// carry its name (`application_name=tabletop-NODE`), so that the others see at once
/// when its process is gone — its connections with it — and take its leases then
/// instead of waiting for them to run out.
pub fn named(url: &str, node: &str) -> String {
    if !(url.starts_with("postgres://") || url.starts_with("postgresql://")) {
        return url.to_owned();
    }
    let join = if url.contains('?') { '&' } else { '?' };
    format!("{url}{join}application_name=tabletop-{node}")
}

/// Joins, as `node`, the other servers of a shared PostgreSQL database (does nothing on
/// SQLite).
pub fn join(hub: &mut Hub, node: String, lease_ms: u64) {
    if hub.store.shared_url().is_some() {
        hub.cluster = Some(Arc::new(Node {
            name: node,
            lease_ms: lease_ms.max(300),
            pending: Mutex::new(HashMap::new()),
            others: AtomicBool::new(false),
        }));
    }
}

/// Runs the notifications and the leases of a hub that joined a cluster, until the hub
/// is gone.
pub fn run(hub: &Arc<Hub>) {
    let (Some(url), Some(node)) = (hub.store.shared_url(), hub.cluster.as_ref()) else {
        return;
    };
    let (node, lease_ms) = (node.name.clone(), node.lease_ms);
    tokio::spawn(listen(url.to_owned(), Arc::downgrade(hub)));
    tokio::spawn(leases(Arc::downgrade(hub), node, lease_ms));
    tokio::spawn(tidy(Arc::downgrade(hub)));
}

/// Every ten minutes, deletes what dead servers left in the database.
async fn tidy(hub: Weak<Hub>) {
    let mut every = tokio::time::interval(Duration::from_secs(600));
    loop {
        every.tick().await;
        let Some(hub) = hub.upgrade() else { return };
        if let Err(e) = hub.store.tidy_cluster().await {
            tracing::error!("tidying the cluster's tables: {e}");
        }
    }
}

/// Hears the tables other servers changed, and has their rooms here catch up.
async fn listen(url: String, hub: Weak<Hub>) {
    loop {
        let listener = async {
            let mut listener = PgListener::connect(&url).await?;
            listener.listen("tabletop").await?;
            Ok::<_, sqlx::Error>(listener)
        };
        let mut listener = match listener.await {
            Ok(listener) => listener,
            Err(e) => {
                tracing::error!("listening to PostgreSQL: {e}");
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        loop {
            match listener.recv().await {
                Ok(note) => {
                    let Some(hub) = hub.upgrade() else { return };
                    hub.changed(note.payload()).await;
                }
                Err(e) => {
                    tracing::error!("PostgreSQL notifications: {e}");
                    break;
                }
            }
            if hub.strong_count() == 0 {
                return;
            }
        }
    }
}

/// Takes and renews the leases of the tables this server follows, and tells each room
/// whether it runs its table.
async fn leases(hub: Weak<Hub>, node: String, lease_ms: u64) {
    let mut owned: HashMap<String, bool> = HashMap::new();
    let mut every = tokio::time::interval(Duration::from_millis(lease_ms / 3));
    loop {
        every.tick().await;
        let Some(hub) = hub.upgrade() else { return };
        // The server's own heartbeat: others know it lives.
        let beat = format!("node:{node}");
        if let Err(e) = hub.store.lease(&beat, &node, lease_ms).await {
            tracing::error!("heartbeat: {e}");
        }
        // Another server came: every room stores its presence for it. (A server that
        // comes loads its rooms with every player away from then on, so none can be
        // claimed from there before this is done: a grace period is far longer.)
        let others = hub.store.others_alive(&node).await.unwrap_or(true);
        let came = others
            && hub
                .cluster
                .as_ref()
                .is_some_and(|me| !me.others.swap(true, Ordering::Relaxed));
        if !others && let Some(me) = &hub.cluster {
            me.others.store(false, Ordering::Relaxed);
        }
        if came {
            for (_, room) in hub.rooms().await {
                let _ = room.send(RoomMsg::SharePresence).await;
            }
        }
        for (table, room) in hub.rooms().await {
            let mine = hub
                .store
                .lease(&table, &node, lease_ms)
                .await
                .inspect_err(|e| tracing::error!(table, "renewing a lease: {e}"))
                .unwrap_or(false);
            if owned.insert(table, mine) != Some(mine) {
                let _ = room.send(RoomMsg::Lease(mine)).await;
            }
        }
    }
}
