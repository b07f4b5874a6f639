package dev.sympathy.bridge;

import io.aeron.Aeron;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.driver.ext.DebugChannelEndpointConfiguration;
import io.aeron.driver.ext.DebugReceiveChannelEndpointSupplier;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

/**
 * One bridge end's Aeron: an embedded media driver (or a connection to a running one) and a
 * client. In {@link BridgeSettings.Threading#INVOKER} mode neither starts a thread: the end's
 * loop calls {@link #invoke} each turn, so driver, client and bridge share one core.
 */
final class BridgeNode implements AutoCloseable {
    private final MediaDriver driver;
    private final Aeron aeron;
    private final AgentInvoker driverInvoker;
    private final AgentInvoker clientInvoker;

    BridgeNode(BridgeSettings settings, String role) {
        String dir = settings.aeronDir != null ? settings.aeronDir.toString() : defaultDir(settings.ring, role);
        if (settings.externalDriver) {
            driver = null;
        } else {
            if (settings.lossRate > 0) {
                // Read by the debug endpoint when the driver opens its receive channel.
                System.setProperty(DebugChannelEndpointConfiguration.RECEIVE_DATA_LOSS_RATE_PROP_NAME,
                        Double.toString(settings.lossRate));
                System.setProperty(DebugChannelEndpointConfiguration.RECEIVE_DATA_LOSS_SEED_PROP_NAME,
                        Long.toString(settings.lossSeed));
            }
            MediaDriver.Context ctx = new MediaDriver.Context()
                    .aeronDirectoryName(dir)
                    .dirDeleteOnStart(true)
                    .dirDeleteOnShutdown(true)
                    .threadingMode(switch (settings.threading) {
                        case INVOKER -> ThreadingMode.INVOKER;
                        case SHARED -> ThreadingMode.SHARED;
                        case DEDICATED -> ThreadingMode.DEDICATED;
                    })
                    .publicationTermBufferLength(settings.termLength)
                    .ipcTermBufferLength(settings.termLength)
                    .mtuLength(settings.mtu)
                    .ipcMtuLength(settings.mtu)
                    .initialWindowLength(settings.window)
                    .imageLivenessTimeoutNs(TimeUnit.MILLISECONDS.toNanos(settings.linkTimeoutMs))
                    .publicationConnectionTimeoutNs(TimeUnit.MILLISECONDS.toNanos(settings.linkTimeoutMs))
                    .publicationLingerTimeoutNs(TimeUnit.MILLISECONDS.toNanos(100))
                    .warnIfDirectoryExists(false)
                    .printConfigurationOnStart(false);
            if (settings.lossRate > 0) {
                ctx.receiveChannelEndpointSupplier(new DebugReceiveChannelEndpointSupplier());
            }
            if (settings.threading != BridgeSettings.Threading.INVOKER) {
                IdleStrategy idle = idleStrategy(settings.idle);
                ctx.sharedIdleStrategy(idle);
            }
            driver = MediaDriver.launchEmbedded(ctx);
        }
        driverInvoker = driver == null ? null : driver.sharedAgentInvoker();
        Aeron.Context client = new Aeron.Context()
                .aeronDirectoryName(dir)
                .useConductorAgentInvoker(true);
        if (driverInvoker != null) {
            client.driverAgentInvoker(driverInvoker);
        }
        try {
            aeron = Aeron.connect(client);
        } catch (RuntimeException e) {
            if (driver != null) {
                driver.close();
            }
            throw e;
        }
        clientInvoker = aeron.conductorAgentInvoker();
    }

    /**
     * The folder of an end's own driver, in memory ({@code /dev/shm}) where there is one: by role
     * and ring, so a restarted end cleans up after a predecessor that was killed.
     */
    static String defaultDir(Path ring, String role) {
        String key = Integer.toHexString(ring.toAbsolutePath().normalize().toString().hashCode());
        Path shm = Path.of("/dev/shm");
        Path parent = java.nio.file.Files.isDirectory(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
        return parent.resolve("sympathy-bridge-" + role + "-" + key).toString();
    }

    static IdleStrategy idleStrategy(BridgeSettings.Idle idle) {
        return switch (idle) {
            case SPIN -> new BusySpinIdleStrategy();
            case BACKOFF -> new BackoffIdleStrategy(100, 10, TimeUnit.MICROSECONDS.toNanos(1),
                    TimeUnit.MILLISECONDS.toNanos(1));
            case YIELD -> new YieldingIdleStrategy();
        };
    }

    Aeron aeron() {
        return aeron;
    }

    /**
     * A system counter of this end's driver (NAKs sent, retransmits, ...): Aeron's own account of
     * the link; -1 once the client is closed.
     */
    long systemCounter(io.aeron.driver.status.SystemCounterDescriptor counter) {
        // A client whose driver went first (another end's, over IPC) is closed: nothing to read.
        return aeron.isClosed() ? -1 : aeron.countersReader().getCounterValue(counter.id());
    }

    /** One duty cycle of the embedded driver (INVOKER mode) and of the client's conductor: work done. */
    int invoke() {
        int work = 0;
        if (driverInvoker != null) {
            work += driverInvoker.invoke();
        }
        work += clientInvoker.invoke();
        return work;
    }

    @Override
    public void close() {
        aeron.close();
        if (driver != null) {
            driver.close();
        }
    }
}
