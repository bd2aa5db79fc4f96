// Smoke program of the Kotlin client openapi-generator (kotlin, jvm-okhttp4)
// generates from openapi.yaml. Drives the gateway at EDGE_URL (admin password
// in EDGE_ADMIN_PASSWORD) as an integrator would: logs in, creates a user,
// pages the audit log, creates an http_south service, posts readings to it,
// reads the asset's readings and summary, lists the south services with that
// one running and reads the statistics, then deletes the service. Exits 1,
// saying what was wrong, on the first failure.
package edged.smoke

import java.net.ConnectException
import java.net.ServerSocket
import java.net.URI
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import kotlin.system.exitProcess
import org.openapitools.client.apis.AssetsApi
import org.openapitools.client.apis.AuditApi
import org.openapitools.client.apis.ServicesApi
import org.openapitools.client.apis.StatisticsApi
import org.openapitools.client.apis.UsersApi
import org.openapitools.client.infrastructure.ApiClient
import org.openapitools.client.infrastructure.ClientException
import org.openapitools.client.infrastructure.ClientError
import org.openapitools.client.infrastructure.ServerException
import org.openapitools.client.infrastructure.ServerError
import org.openapitools.client.models.LoginRequest
import org.openapitools.client.models.ServiceConfigValue
import org.openapitools.client.models.ServiceRequest
import org.openapitools.client.models.UserCreate

private const val LANG = "kotlin"

fun fail(what: String): Nothing {
    System.err.println("FAIL: $what")
    exitProcess(1)
}

/** Runs an API call, failing with its status and body when it throws. */
fun <T> must(what: String, call: () -> T): T =
    try {
        call()
    } catch (e: ClientException) {
        fail("$what: ${e.statusCode} ${(e.response as? ClientError<*>)?.body}")
    } catch (e: ServerException) {
        fail("$what: ${e.statusCode} ${(e.response as? ServerError<*>)?.body}")
    }

/** Calls check every 100 ms until it returns something other than null. */
fun <T : Any> eventually(what: String, seconds: Long, check: () -> T?): T {
    val deadline = System.nanoTime() + seconds * 1_000_000_000L
    while (true) {
        check()?.let { return it }
        if (System.nanoTime() > deadline) fail("$what: not within $seconds s")
        Thread.sleep(100)
    }
}

fun main() {
    val url = (System.getenv("EDGE_URL") ?: fail("EDGE_URL not set")).trimEnd('/')
    val password = System.getenv("EDGE_ADMIN_PASSWORD") ?: fail("EDGE_ADMIN_PASSWORD not set")
    val host = URI.create(url).host
    val suffix = (System.currentTimeMillis() % 1_000_000_000L).toString()

    val login = must("login") { UsersApi(url).login(LoginRequest(username = "admin", password = password)) }
    if (login.token.isEmpty() || !login.admin) fail("login: $login")
    ApiClient.apiKey["authorization"] = login.token
    println("logged in as admin")

    val name = "smoke-$LANG-$suffix"
    val user = must("createUser") { UsersApi(url).createUser(UserCreate(username = name, password = "Smoke-Passw0rd!$suffix")) }
    if (user.userName != name) fail("createUser: user ${user.userName}, want $name")
    println("created user $name")

    // Three pages of two entries, newest first: the user's creation (USRAD)
    // is among them, and no page goes back in time.
    val seen = mutableListOf<String>()
    var last = "9999"
    var total = 0L
    for (page in 0 until 3) {
        val got = must("listAuditEntries") { AuditApi(url).listAuditEntries(limit = 2, skip = 2 * page) }
        total = got.totalCount.toLong()
        if (got.audit.size != 2) fail("audit page ${page + 1}: ${got.audit.size} entries, want 2 (totalCount $total)")
        for (e in got.audit) {
            val ts = e.timestamp.toString()
            if (ts > last) fail("audit page ${page + 1}: $ts after $last")
            last = ts
            seen += e.source.toString()
        }
    }
    if ("USRAD" !in seen) fail("audit: sources $seen, want USRAD among the newest")
    println("paged the audit log: $total entries")

    val service = "smoke-$LANG-south-$suffix"
    val port = ServerSocket(0).use { it.localPort }
    val created = must("createService") {
        ServicesApi(url).createService(
            ServiceRequest(
                name = service,
                type = "south",
                enabled = true,
                plugin = "http_south",
                config = mapOf("port" to ServiceConfigValue(value = port.toString())),
            ),
        )
    }
    println("created service ${created.name} on port $port")

    val asset = "smoke-$LANG-asset-$suffix"
    val body = (0 until 3).joinToString(",", "[", "]") {
        """{"timestamp":"2024-05-01 10:15:4$it","asset":"$asset","readings":{"temperature":${20 + it}}}"""
    }
    val http = HttpClient.newHttpClient()
    val post = HttpRequest.newBuilder(URI.create("http://$host:$port/sensor-reading"))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body))
        .build()
    eventually("ingest accepted", 15) {
        try {
            val r = http.send(post, HttpResponse.BodyHandlers.ofString())
            if (r.statusCode() != 200) fail("ingest: ${r.statusCode()} ${r.body()}")
            true
        } catch (e: ConnectException) {
            null // the service's listener is not up yet
        }
    }
    println("posted 3 readings")

    val rows = eventually("3 readings of the asset", 15) {
        must("getAssetReadings") { AssetsApi(url).getAssetReadings(asset, limit = 10) }.takeIf { it.size == 3 }
    }
    val values = rows.map { (it.reading["temperature"] as Number).toDouble() }.sorted()
    if (values != listOf(20.0, 21.0, 22.0)) fail("readings: temperatures $values")
    val summary = must("getAssetSummary") { AssetsApi(url).getAssetSummary(asset) }
    val t = summary["temperature"]
    if (t == null || t.min != 20.0 || t.max != 22.0 || t.average != 21.0) fail("summary: $summary")
    println("read the readings and the summary")

    eventually("$service running in the south list", 30) {
        must("listSouthServices") { ServicesApi(url).listSouthServices() }.services
            .any { it.name == service && it.status.toString() == "running" }
            .takeIf { it }
    }
    println("$service is running")

    val stats = must("listStatistics") { StatisticsApi(url).listStatistics() }
    fun count(key: String): Long = stats.find { it.key == key }?.value?.toLong() ?: -1
    if (count(asset) < 3 || count("$service-Ingest") < 3) {
        fail("statistics: $asset = ${count(asset)}, $service-Ingest = ${count("$service-Ingest")}")
    }
    println("read the statistics")

    must("deleteService") { ServicesApi(url).deleteService(service) }
    println("smoke: ok")
}
