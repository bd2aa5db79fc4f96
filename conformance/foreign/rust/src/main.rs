//! Smoke program of the Rust client openapi-generator (rust, reqwest library)
//! generates from openapi.yaml. Drives the gateway at EDGE_URL (admin
//! password in EDGE_ADMIN_PASSWORD) as an integrator would: logs in, creates
//! a user, pages the audit log, creates an http_south service, posts readings
//! to it, reads the asset's readings and summary, lists the south services
//! with that one running and reads the statistics, then deletes the service.
//! Exits 1, saying what was wrong, on the first failure.

use std::collections::HashMap;
use std::fmt::Debug;
use std::future::Future;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use openapi::apis::configuration::{ApiKey, Configuration};
use openapi::apis::{assets_api, audit_api, services_api, statistics_api, users_api};
use openapi::models;

const LANG: &str = "rust";

fn fail(what: impl AsRef<str>) -> ! {
    eprintln!("FAIL: {}", what.as_ref());
    std::process::exit(1)
}

/// Returns the call's value, or fails naming the call and its error.
fn must<T, E: Debug>(what: &str, r: Result<T, E>) -> T {
    r.unwrap_or_else(|e| fail(format!("{what}: {e:?}")))
}

/// The JSON form of a value as text: what the wire carries, whatever Rust
/// type the generator chose for it (string, enum, serde_json::Value).
fn wire<T: serde::Serialize>(v: &T) -> String {
    match serde_json::to_value(v) {
        Ok(serde_json::Value::String(s)) => s,
        Ok(other) => other.to_string(),
        Err(e) => fail(format!("encode: {e}")),
    }
}

/// Calls check every 100 ms until it returns Some.
async fn eventually<T, F, Fut>(what: &str, seconds: u64, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Option<T>>,
{
    let deadline = Instant::now() + Duration::from_secs(seconds);
    loop {
        if let Some(v) = check().await {
            return v;
        }
        if Instant::now() > deadline {
            fail(format!("{what}: not within {seconds} s"));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::main]
async fn main() {
    let url = std::env::var("EDGE_URL").unwrap_or_else(|_| fail("EDGE_URL not set"));
    let url = url.trim_end_matches('/').to_string();
    let password = std::env::var("EDGE_ADMIN_PASSWORD").unwrap_or_else(|_| fail("EDGE_ADMIN_PASSWORD not set"));
    let host = url.split("://").nth(1).and_then(|h| h.rsplit_once(':')).map(|(h, _)| h.to_string()).unwrap_or_else(|| fail(format!("EDGE_URL {url}: no host:port")));
    let suffix = (SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_millis() % 1_000_000_000).to_string();

    let mut config = Configuration::new();
    config.base_path = url.clone();
    let login = must("login", users_api::login(&config, Some(models::LoginRequest::new("admin".into(), password))).await);
    if login.token.is_empty() || !login.admin {
        fail(format!("login: {login:?}"));
    }
    config.api_key = Some(ApiKey { prefix: None, key: login.token.clone() });
    println!("logged in as admin");

    let name = format!("smoke-{LANG}-{suffix}");
    let user = must("createUser", users_api::create_user(&config, models::UserCreate::new(name.clone(), format!("Smoke-Passw0rd!{suffix}"))).await);
    if user.user_name != name {
        fail(format!("createUser: user {}, want {name}", user.user_name));
    }
    println!("created user {name}");

    // Three pages of two entries, newest first: the user's creation (USRAD)
    // is among them, and no page goes back in time.
    let mut seen = Vec::new();
    let mut last = "9999".to_string();
    let mut total = 0i64;
    for page in 0..3 {
        let got = must("listAuditEntries", audit_api::list_audit_entries(&config, Some(2), Some(2 * page), None, None).await);
        total = i64::from(got.total_count);
        if got.audit.len() != 2 {
            fail(format!("audit page {}: {} entries, want 2 (totalCount {total})", page + 1, got.audit.len()));
        }
        for e in &got.audit {
            let ts = wire(&e.timestamp);
            if ts > last {
                fail(format!("audit page {}: {ts} after {last}", page + 1));
            }
            last = ts;
            seen.push(wire(&e.source));
        }
    }
    if !seen.iter().any(|s| s == "USRAD") {
        fail(format!("audit: sources {seen:?}, want USRAD among the newest"));
    }
    println!("paged the audit log: {total} entries");

    let service = format!("smoke-{LANG}-south-{suffix}");
    let port = std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).unwrap_or_else(|e| fail(format!("free port: {e}")));
    let mut create = models::ServiceCreateRequest::new(service.clone(), "south".into(), true);
    create.plugin = Some("http_south".into());
    create.config = Some(HashMap::from([("port".to_string(), models::ServiceConfigValue::new(port.to_string()))]));
    let created = must(
        "createService",
        services_api::create_service(&config, models::ServiceRequest::ServiceCreateRequest(Box::new(create)), None).await,
    );
    println!("created service {} on port {port}", created.name);

    let asset = format!("smoke-{LANG}-asset-{suffix}");
    let body: Vec<serde_json::Value> = (0..3)
        .map(|i| serde_json::json!({"timestamp": format!("2024-05-01 10:15:4{i}"), "asset": asset, "readings": {"temperature": 20 + i}}))
        .collect();
    let body = serde_json::to_string(&body).unwrap();
    let http = reqwest::Client::new();
    let ingest = format!("http://{host}:{port}/sensor-reading");
    eventually("ingest accepted", 15, || async {
        match http.post(&ingest).header("Content-Type", "application/json").body(body.clone()).send().await {
            Ok(r) if r.status() == 200 => Some(()),
            Ok(r) => fail(format!("ingest: {} {}", r.status(), r.text().await.unwrap_or_default())),
            Err(e) if e.is_connect() => None, // the service's listener is not up yet
            Err(e) => fail(format!("ingest: {e}")),
        }
    })
    .await;
    println!("posted 3 readings");

    let rows = eventually("3 readings of the asset", 15, || async {
        let got = must("getAssetReadings", assets_api::get_asset_readings(&config, &asset, Some(10), None, None, None, None, None).await);
        (got.len() == 3).then_some(got)
    })
    .await;
    let mut values: Vec<f64> = rows.iter().map(|r| r.reading.get("temperature").and_then(|v| v.as_f64()).unwrap_or(f64::NAN)).collect();
    values.sort_by(|a, b| a.total_cmp(b));
    if values != [20.0, 21.0, 22.0] {
        fail(format!("readings: temperatures {values:?}"));
    }
    let summary = must("getAssetSummary", assets_api::get_asset_summary(&config, &asset).await);
    match summary.get("temperature") {
        Some(t) if t.min == 20.0 && t.max == 22.0 && t.average == 21.0 => {}
        _ => fail(format!("summary: {summary:?}")),
    }
    println!("read the readings and the summary");

    eventually(&format!("{service} running in the south list"), 30, || async {
        let got = must("listSouthServices", services_api::list_south_services(&config).await);
        got.services.iter().any(|s| s.name == service && wire(&s.status) == "running").then_some(())
    })
    .await;
    println!("{service} is running");

    let stats = must("listStatistics", statistics_api::list_statistics(&config).await);
    let count = |key: &str| stats.iter().find(|s| s.key == key).map(|s| i64::from(s.value)).unwrap_or(-1);
    let ingest_key = format!("{service}-Ingest");
    if count(&asset) < 3 || count(&ingest_key) < 3 {
        fail(format!("statistics: {asset} = {}, {ingest_key} = {}", count(&asset), count(&ingest_key)));
    }
    println!("read the statistics");

    must("deleteService", services_api::delete_service(&config, &service).await);
    println!("smoke: ok");
}
