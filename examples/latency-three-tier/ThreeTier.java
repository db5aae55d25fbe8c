// A client, a server and a backend talking over TCP, instrumented with the tracesync probe.
//
//   java -cp tracesync-probe.jar ThreeTier.java backend PORT PROBE_DIR NODE
//   java -cp tracesync-probe.jar ThreeTier.java server PORT BACKEND_HOST BACKEND_PORT PROBE_DIR NODE
//   java -cp tracesync-probe.jar ThreeTier.java client SERVER_HOST SERVER_PORT REQUESTS PROBE_DIR NODE
//
// One request is the chained event "order" in 8 steps:
//   1 client sends  2 server receives  3 server calls the backend  4 backend receives
//   5 backend replies  6 server receives the reply  7 server answers  8 client receives
// plus the simple events "query" (backend, around its work) and "render" (client, after step 8).
// The protocol is one text line per message ("seq\n"). The backend and the server serve until the
// client closes its connection. Every process writes its probe trace to PROBE_DIR/NODE-PID/.

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.tracesync.probe.Probe;

public class ThreeTier {

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "backend" -> backend(Integer.parseInt(args[1]), Path.of(args[2]), args[3]);
            case "server" -> server(Integer.parseInt(args[1]), args[2], Integer.parseInt(args[3]), Path.of(args[4]), args[5]);
            case "client" -> client(args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]), Path.of(args[4]), args[5]);
            default -> throw new IllegalArgumentException("backend | server | client");
        }
    }

    static void backend(int port, Path dir, String node) throws Exception {
        try (Probe probe = Probe.open(dir, node); ServerSocket ss = new ServerSocket(port)) {
            int order = probe.event("order");
            int query = probe.event("query");
            System.out.println("backend listening on " + port);
            try (Socket s = ss.accept();
                 BufferedReader in = reader(s);
                 PrintWriter out = writer(s)) {
                s.setTcpNoDelay(true);
                String line;
                while ((line = in.readLine()) != null) {
                    long seq = Long.parseLong(line);
                    probe.step(order, seq, 4);
                    probe.start(query, seq);
                    work(20_000 + (seq % 7) * 10_000);
                    probe.stop(query, seq);
                    probe.step(order, seq, 5);
                    out.println(seq);
                }
            }
        }
    }

    static void server(int port, String backendHost, int backendPort, Path dir, String node) throws Exception {
        try (Probe probe = Probe.open(dir, node); ServerSocket ss = new ServerSocket(port)) {
            int order = probe.event("order");
            System.out.println("server listening on " + port);
            try (Socket c = ss.accept();
                 BufferedReader in = reader(c);
                 PrintWriter out = writer(c);
                 Socket b = new Socket(backendHost, backendPort);
                 BufferedReader bin = reader(b);
                 PrintWriter bout = writer(b)) {
                c.setTcpNoDelay(true);
                b.setTcpNoDelay(true);
                String line;
                while ((line = in.readLine()) != null) {
                    long seq = Long.parseLong(line);
                    probe.step(order, seq, 2);
                    work(10_000);
                    probe.step(order, seq, 3);
                    bout.println(seq);
                    String reply = bin.readLine();
                    probe.step(order, Long.parseLong(reply), 6);
                    work(10_000);
                    probe.step(order, seq, 7);
                    out.println(seq);
                }
            }
        }
    }

    static void client(String host, int port, int requests, Path dir, String node) throws Exception {
        try (Probe probe = Probe.open(dir, node);
             Socket s = connect(host, port);
             BufferedReader in = reader(s);
             PrintWriter out = writer(s)) {
            s.setTcpNoDelay(true);
            int order = probe.event("order");
            int render = probe.event("render");
            for (long seq = 1; seq <= requests; seq++) {
                probe.step(order, seq, 1);
                out.println(seq);
                String reply = in.readLine();
                probe.step(order, Long.parseLong(reply), 8);
                probe.start(render, seq);
                work(5_000);
                probe.stop(render, seq);
                Thread.sleep(2);
            }
            System.out.println("client: " + requests + " requests done");
        }
    }

    /** Busy work of about {@code ns} nanoseconds. */
    static void work(long ns) {
        long t0 = System.nanoTime();
        while (System.nanoTime() - t0 < ns) {
            Thread.onSpinWait();
        }
    }

    static Socket connect(String host, int port) throws Exception {
        for (int k = 0; ; k++) {
            try {
                return new Socket(host, port);
            } catch (java.net.ConnectException e) {
                if (k == 100) {
                    throw e;
                }
                Thread.sleep(100); // the server may still be starting
            }
        }
    }

    static BufferedReader reader(Socket s) throws Exception {
        return new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
    }

    static PrintWriter writer(Socket s) throws Exception {
        return new PrintWriter(new java.io.OutputStreamWriter(s.getOutputStream(), StandardCharsets.US_ASCII), true);
    }
}
