package dev.sympathy.app;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.sympathy.map.MapDescriptor;
import dev.sympathy.map.MapException;
import dev.sympathy.map.MapFile;
import dev.sympathy.map.user.UserCodecException;
import dev.sympathy.map.user.UserJson;
import dev.sympathy.map.user.UserView;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code sidecar serve-map FILE --port P}: the Java twin of {@code sympathy serve-map}, the seed's
 * lookup service, on the JDK's own HTTP server with one virtual thread per request, reading the
 * map in place from a read-only mapping. The same routes, statuses and bodies as the Rust service
 * (its {@code lookup} and {@code about}), byte for byte:
 *
 * <pre>
 * GET /users/{id}   200 the user as JSON (UserJson), 404 when absent, 400 for an id that is not
 *                   a decimal u64
 * GET /             200 {"service":"sympathy serve-map","file":...,"users":N,...}
 * anything else     404 (405 for another method), with a JSON error
 * </pre>
 *
 * <p>No client can hold it: the JDK server's own limits are set from the flags, as the Rust
 * service's: a request's headers must arrive within the read timeout, and an idle connection is
 * closed after it (both at the JDK's one-second resolution); a half-closed client gets its
 * answer. Past {@code --max-connections} the JDK server closes a new connection at once,
 * without an answer (the Rust service answers it 503 at once): refused either way, never
 * queued. A map truncated under the service ends it with exit
 * status 3 and the Rust service's words, instead of failing every request.
 */
final class MapService {
    private MapService() {}

    /** Set by the first request that meets a fault in the map's mapping. */
    private static final AtomicBoolean FAULTED = new AtomicBoolean();

    static final String USAGE = """
              serve-map PATH --port P [--bind ADDR]      serve a map of users over HTTP: GET /users/{id} as
                [--read-timeout-ms MS]                   JSON (virtual threads; port 0 picks a free one); a
                [--max-connections N]                    client's headers within MS (10000), N (1024) open""";

    /** A status and a JSON body. */
    record Answer(int status, String body) {
    }

    private static String errorBody(String message) {
        StringBuilder out = new StringBuilder("{\"error\":");
        UserJson.writeString(message, out);
        return out.append('}').toString();
    }

    /** The answer to {@code GET /users/{id}} (the Rust {@code lookup}). */
    static Answer lookup(MapFile map, UserView view, String id) {
        long key;
        if (id.isEmpty() || id.length() > 20 || !id.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return malformed(id);
        }
        try {
            key = Long.parseUnsignedLong(id);
        } catch (NumberFormatException e) {
            return malformed(id);
        }
        try {
            long record = map.find(key);
            if (record < 0) {
                return new Answer(404, errorBody("user " + Long.toUnsignedString(key) + " not found"));
            }
            StringBuilder out = new StringBuilder(256);
            UserJson.write(view.wrap(map.data(), MapFile.valueOffset(record), map.valueLength(record)), out);
            return new Answer(200, out.toString());
        } catch (UserCodecException e) {
            return new Answer(500, errorBody("user " + Long.toUnsignedString(key) + ": " + e.getMessage()));
        } catch (MapException e) {
            return new Answer(500, errorBody(e.getMessage()));
        }
    }

    private static Answer malformed(String id) {
        return new Answer(400, errorBody("malformed user id \"" + id
                + "\": expected a decimal integer from 0 to 18446744073709551615"));
    }

    /**
     * A percent-encoded path segment, decoded as UTF-8; one whose bytes are not UTF-8 is left as it
     * is (a malformed id naming what was sent), as the Rust service does.
     */
    static String decode(String raw) {
        if (raw.indexOf('%') < 0) {
            return raw;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            int high = c == '%' && i + 2 < raw.length() ? Character.digit(raw.charAt(i + 1), 16) : -1;
            int low = high >= 0 ? Character.digit(raw.charAt(i + 2), 16) : -1;
            if (low >= 0) {
                bytes.write(high * 16 + low);
                i += 2;
            } else if (c == '%' || c > 0x7f) {
                return raw;
            } else {
                bytes.write(c);
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes.toByteArray()))
                    .toString();
        } catch (CharacterCodingException e) {
            return raw;
        }
    }

    /** The body of {@code GET /} (the Rust {@code about}). */
    static String about(MapFile map) {
        StringBuilder out = new StringBuilder("{\"service\":\"sympathy serve-map\",\"file\":");
        UserJson.writeString(map.path() == null ? "" : map.path().toString(), out);
        return out.append(",\"users\":").append(map.size()).append(",\"value_format\":\"")
                .append(MapDescriptor.formatName(map.valueFormat())).append("\",\"lookup\":\"/users/{id}\"}").toString();
    }

    /**
     * Routes one exchange. A fault in the map's mapping (the file truncated under the service)
     * ends the process with the Rust service's words and exit status 3: every later lookup
     * would fault too.
     */
    static void handle(MapFile map, HttpExchange exchange) throws IOException {
        try {
            route(map, exchange);
        } catch (InternalError e) {
            if (!Sidecar.isMappedAccessFault(e)) {
                throw e;
            }
            if (!FAULTED.compareAndSet(false, true)) {
                // Another request met the fault first and is ending the process: say it once.
                LockSupport.park();
                return;
            }
            System.err.println("sidecar serve-map: " + MapCommands.mappedFault(map.path()));
            // halt, not exit: the shutdown hook would wait for this very request to end.
            Runtime.getRuntime().halt(Sidecar.MAPPED_FAULT_EXIT);
        }
    }

    private static void route(MapFile map, HttpExchange exchange) throws IOException {
        try (exchange) {
            String protocol = exchange.getProtocol();
            if (!protocol.equals("HTTP/1.1") && !protocol.equals("HTTP/1.0")) {
                // As hyper answers a version it does not speak (the JDK server takes any).
                exchange.getResponseHeaders().set("connection", "close");
                exchange.sendResponseHeaders(400, -1);
                return;
            }
            String method = exchange.getRequestMethod();
            String path = exchange.getRequestURI().getRawPath();
            // Routed on the raw path (an encoded slash stays inside the id), the id then
            // percent-decoded, as axum's router and Path extractor do.
            boolean users = path.startsWith("/users/") && path.length() > 7 && path.indexOf('/', 7) < 0;
            if ((users || path.equals("/")) && !method.equals("GET") && !method.equals("HEAD")) {
                exchange.getResponseHeaders().set("allow", "GET,HEAD");
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            Answer answer;
            if (users) {
                answer = lookup(map, new UserView(), decode(path.substring(7)));
            } else if (path.equals("/")) {
                answer = new Answer(200, about(map));
            } else {
                answer = new Answer(404, errorBody("no such resource " + path + ": try GET /users/{id}"));
            }
            byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("content-type", "application/json");
            if (method.equals("HEAD")) {
                // The length the GET would have, as hyper sends it (the JDK server leaves it to
                // the handler for a HEAD).
                exchange.getResponseHeaders().set("content-length", Integer.toString(body.length));
                exchange.sendResponseHeaders(answer.status(), -1);
                return;
            }
            exchange.sendResponseHeaders(answer.status(), body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    /**
     * Sets the JDK server's limits (read before its first use): the time for a request
     * ({@code maxReqTime}) and the idle time of a connection ({@code idleInterval}), both in whole
     * seconds, checked every second; and the cap on open connections.
     */
    private static void limit(long readTimeoutMs, long maxConnections) {
        String seconds = Long.toString(Math.ceilDiv(readTimeoutMs, 1000));
        System.setProperty("sun.net.httpserver.maxReqTime", seconds);
        System.setProperty("sun.net.httpserver.idleInterval", seconds);
        System.setProperty("sun.net.httpserver.clockTick", "1000");
        System.setProperty("sun.net.httpserver.timerMillis", "1000");
        System.setProperty("jdk.httpserver.maxConnections", Long.toString(maxConnections));
    }

    static void run(String[] argv) throws IOException, InterruptedException {
        Args args = new Args("serve-map", argv, 1, Set.of("port", "bind", "read-timeout-ms", "max-connections"),
                Set.of());
        Path path = Path.of(args.positional(0, "PATH (the map of users)"));
        args.expectPositional(1);
        int port = (int) args.requiredLong("port", 0, 65535);
        String bind = args.string("bind", "127.0.0.1");
        long readTimeoutMs = args.longOption("read-timeout-ms", 1, Long.MAX_VALUE / 2, 10_000);
        long maxConnections = args.longOption("max-connections", 1, 1_000_000, 1024);
        limit(readTimeoutMs, maxConnections);
        MapFile map = MapFile.openReadOnly(path);
        MapCommands.expectUsers(map);
        HttpServer server;
        try {
            server = HttpServer.create(new InetSocketAddress(bind, port), 1024);
        } catch (IOException e) {
            throw new IOException("listen on " + bind + ":" + port + " (is the port in use? pick another with --port, or 0): "
                    + e.getMessage(), e);
        }
        ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        server.createContext("/", exchange -> handle(map, exchange));
        server.setExecutor(executor);
        server.start();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.stop(0);
            executor.close();
            stopped.countDown();
        }));
        System.err.println("serve-map: " + map.size() + " users from " + path + ", listening on http://" + bind + ":"
                + server.getAddress().getPort() + " (GET /users/{id}; JDK HttpServer, a virtual thread per request; read"
                + " timeout " + readTimeoutMs + " ms, at most " + maxConnections + " connections)");
        stopped.await();
    }
}
