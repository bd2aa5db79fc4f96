package edged.smoke;

import java.io.IOException;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.openapitools.client.ApiClient;
import org.openapitools.client.ApiException;
import org.openapitools.client.api.AssetsApi;
import org.openapitools.client.api.AuditApi;
import org.openapitools.client.api.ServicesApi;
import org.openapitools.client.api.StatisticsApi;
import org.openapitools.client.api.UsersApi;
import org.openapitools.client.model.AuditEntry;
import org.openapitools.client.model.AuditList;
import org.openapitools.client.model.LoginRequest;
import org.openapitools.client.model.LoginResult;
import org.openapitools.client.model.Reading;
import org.openapitools.client.model.ServiceConfigValue;
import org.openapitools.client.model.ServiceCreateRequest;
import org.openapitools.client.model.ServiceCreated;
import org.openapitools.client.model.ServiceRequest;
import org.openapitools.client.model.SouthService;
import org.openapitools.client.model.Statistic;
import org.openapitools.client.model.SummaryValues;
import org.openapitools.client.model.User;
import org.openapitools.client.model.UserCreate;

/**
 * Smoke program of the Java client openapi-generator (java, native library) generates from
 * openapi.yaml. Drives the gateway at EDGE_URL (admin password in EDGE_ADMIN_PASSWORD) as an
 * integrator would: logs in, creates a user, pages the audit log, creates an http_south service,
 * posts readings to it, reads the asset's readings and summary, lists the south services with that
 * one running and reads the statistics, then deletes the service. Exits 1, saying what was wrong,
 * on the first failure.
 */
public final class Smoke {
  private static final String LANG = "java";

  private Smoke() {}

  static void fail(String what) {
    System.err.println("FAIL: " + what);
    System.exit(1);
  }

  /** Calls check every 100 ms until it returns something other than null. */
  static <T> T eventually(String what, long seconds, Supplier<T> check) throws InterruptedException {
    long deadline = System.nanoTime() + seconds * 1_000_000_000L;
    while (true) {
      T v = check.get();
      if (v != null) {
        return v;
      }
      if (System.nanoTime() > deadline) {
        fail(what + ": not within " + seconds + " s");
      }
      Thread.sleep(100);
    }
  }

  interface Call<T> {
    T call() throws ApiException;
  }

  /** Runs an API call, failing with its status and body when it throws. */
  static <T> T must(String what, Call<T> c) {
    try {
      return c.call();
    } catch (ApiException e) {
      fail(what + ": " + e.getCode() + " " + e.getResponseBody());
      return null;
    }
  }

  public static void main(String[] args) throws Exception {
    String url = System.getenv("EDGE_URL").replaceAll("/+$", "");
    String password = System.getenv("EDGE_ADMIN_PASSWORD");
    String host = URI.create(url).getHost();
    String suffix = Long.toString(System.currentTimeMillis() % 1_000_000_000L);

    ApiClient api = new ApiClient();
    api.updateBaseUri(url);
    LoginResult login =
        must("login", () -> new UsersApi(api).login(new LoginRequest().username("admin").password(password)));
    if (login.getToken() == null || login.getToken().isEmpty() || !Boolean.TRUE.equals(login.getAdmin())) {
      fail("login: " + login);
    }
    String token = login.getToken();
    api.setRequestInterceptor(b -> b.header("authorization", token));
    System.out.println("logged in as admin");

    String name = "smoke-" + LANG + "-" + suffix;
    User user =
        must(
            "createUser",
            () -> new UsersApi(api).createUser(new UserCreate().username(name).password("Smoke-Passw0rd!" + suffix)));
    if (!name.equals(user.getUserName())) {
      fail("createUser: user " + user.getUserName() + ", want " + name);
    }
    System.out.println("created user " + name);

    // Three pages of two entries, newest first: the user's creation (USRAD) is among them, and no
    // page goes back in time.
    List<String> seen = new ArrayList<>();
    String last = "9999";
    long total = 0;
    for (int page = 0; page < 3; page++) {
      int skip = 2 * page;
      AuditList got = must("listAuditEntries", () -> new AuditApi(api).listAuditEntries(2, skip, null, null));
      total = got.getTotalCount();
      if (got.getAudit().size() != 2) {
        fail("audit page " + (page + 1) + ": " + got.getAudit().size() + " entries, want 2 (totalCount " + total + ")");
      }
      for (AuditEntry e : got.getAudit()) {
        String ts = String.valueOf(e.getTimestamp());
        if (ts.compareTo(last) > 0) {
          fail("audit page " + (page + 1) + ": " + ts + " after " + last);
        }
        last = ts;
        seen.add(String.valueOf(e.getSource()));
      }
    }
    if (!seen.contains("USRAD")) {
      fail("audit: sources " + seen + ", want USRAD among the newest");
    }
    System.out.println("paged the audit log: " + total + " entries");

    String service = "smoke-" + LANG + "-south-" + suffix;
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    ServiceCreateRequest create =
        new ServiceCreateRequest()
            .name(service)
            .type("south")
            .plugin("http_south")
            .enabled(true)
            .putConfigItem("port", new ServiceConfigValue().value(Integer.toString(port)));
    ServiceCreated created =
        must("createService", () -> new ServicesApi(api).createService(new ServiceRequest(create), null));
    System.out.println("created service " + created.getName() + " on port " + port);

    String asset = "smoke-" + LANG + "-asset-" + suffix;
    StringBuilder body = new StringBuilder("[");
    for (int i = 0; i < 3; i++) {
      body.append(i == 0 ? "" : ",")
          .append("{\"timestamp\":\"2024-05-01 10:15:4")
          .append(i)
          .append("\",\"asset\":\"")
          .append(asset)
          .append("\",\"readings\":{\"temperature\":")
          .append(20 + i)
          .append("}}");
    }
    body.append("]");
    HttpClient http = HttpClient.newHttpClient();
    HttpRequest post =
        HttpRequest.newBuilder(URI.create("http://" + host + ":" + port + "/sensor-reading"))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
            .build();
    eventually(
        "ingest accepted",
        15,
        () -> {
          try {
            HttpResponse<String> r = http.send(post, HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
              fail("ingest: " + r.statusCode() + " " + r.body());
            }
            return true;
          } catch (ConnectException e) {
            return null; // the service's listener is not up yet
          } catch (IOException | InterruptedException e) {
            fail("ingest: " + e);
            return null;
          }
        });
    System.out.println("posted 3 readings");

    List<Reading> rows =
        eventually(
            "3 readings of the asset",
            15,
            () -> {
              List<Reading> got =
                  must("getAssetReadings", () -> new AssetsApi(api).getAssetReadings(asset, 10, null, null, null, null, null));
              return got.size() == 3 ? got : null;
            });
    List<Double> values = new ArrayList<>();
    for (Reading r : rows) {
      values.add(((Number) r.getReading().get("temperature")).doubleValue());
    }
    values.sort(null);
    if (!values.equals(List.of(20.0, 21.0, 22.0))) {
      fail("readings: temperatures " + values);
    }
    Map<String, SummaryValues> summary = must("getAssetSummary", () -> new AssetsApi(api).getAssetSummary(asset));
    SummaryValues t = summary.get("temperature");
    if (t == null || t.getMin() != 20.0 || t.getMax() != 22.0 || t.getAverage() != 21.0) {
      fail("summary: " + summary);
    }
    System.out.println("read the readings and the summary");

    eventually(
        service + " running in the south list",
        30,
        () -> {
          for (SouthService s : must("listSouthServices", () -> new ServicesApi(api).listSouthServices()).getServices()) {
            if (s.getName().equals(service) && "running".equals(String.valueOf(s.getStatus()))) {
              return true;
            }
          }
          return null;
        });
    System.out.println(service + " is running");

    long assetCount = -1;
    long ingestCount = -1;
    for (Statistic s : must("listStatistics", () -> new StatisticsApi(api).listStatistics())) {
      long v = s.getValue();
      if (Objects.equals(s.getKey(), asset)) {
        assetCount = v;
      } else if (Objects.equals(s.getKey(), service + "-Ingest")) {
        ingestCount = v;
      }
    }
    if (assetCount < 3 || ingestCount < 3) {
      fail("statistics: " + asset + " = " + assetCount + ", " + service + "-Ingest = " + ingestCount);
    }
    System.out.println("read the statistics");

    must("deleteService", () -> new ServicesApi(api).deleteService(service));
    System.out.println("smoke: ok");
  }
}
