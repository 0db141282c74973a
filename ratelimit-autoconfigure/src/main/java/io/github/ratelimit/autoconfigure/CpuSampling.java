package io.github.ratelimit.autoconfigure;

import java.lang.management.ManagementFactory;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;

import com.sun.management.OperatingSystemMXBean;
import org.jspecify.annotations.Nullable;
import org.springframework.context.SmartLifecycle;

import io.github.ratelimit.load.SampledLoadSignal;

/**
 * Samples the CPU usage every second off the request path, for the load signal
 * ({@code ratelimit.load.cpu}), from when the context starts until it stops. It reads
 * what Micrometer's {@code system.cpu.usage} and {@code process.cpu.usage} read (the
 * JDK's {@code com.sun.management} operating system bean), so it works without
 * Micrometer; a JVM without that bean reads as idle.
 */
final class CpuSampling implements SmartLifecycle {

	private final SampledLoadSignal signal;

	private @Nullable ScheduledExecutorService scheduler;

	CpuSampling(LoadProperties.CpuSignal cpu) {
		this.signal = new SampledLoadSignal(usage(cpu));
	}

	SampledLoadSignal signal() {
		return this.signal;
	}

	@Override
	public synchronized void start() {
		if (this.scheduler != null) {
			return;
		}
		ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "ratelimit-cpu-sampler");
			thread.setDaemon(true);
			return thread;
		});
		scheduler.scheduleWithFixedDelay(this.signal::sample, 0, 1, TimeUnit.SECONDS);
		this.scheduler = scheduler;
	}

	@Override
	public synchronized void stop() {
		ScheduledExecutorService scheduler = this.scheduler;
		if (scheduler != null) {
			scheduler.shutdownNow();
			this.scheduler = null;
		}
	}

	@Override
	public synchronized boolean isRunning() {
		return this.scheduler != null;
	}

	/** Starts with the limiter's other background work, before the web server. */
	@Override
	public int getPhase() {
		return BackgroundWork.PHASE;
	}

	private static DoubleSupplier usage(LoadProperties.CpuSignal cpu) {
		if (!(ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os)) {
			return () -> 0;
		}
		return (cpu == LoadProperties.CpuSignal.PROCESS) ? os::getProcessCpuLoad : os::getCpuLoad;
	}

}
