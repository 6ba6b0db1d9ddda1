/**
 * Lets the checks run on a quiet database: `pause()` stops clients from starting new operations and resolves once
 * the operations in flight have ended; `resume()` lets them go on.
 */
export class Gate {
  private paused: Promise<void> | null = null;
  private release: () => void = () => {};
  private active = 0;
  private idle: Array<() => void> = [];

  async enter(): Promise<void> {
    while (this.paused) await this.paused;
    this.active++;
  }

  leave(): void {
    this.active--;
    if (this.active === 0) for (const resolve of this.idle.splice(0)) resolve();
  }

  async pause(): Promise<void> {
    if (!this.paused) this.paused = new Promise((resolve) => (this.release = resolve));
    if (this.active > 0) await new Promise<void>((resolve) => this.idle.push(resolve));
  }

  resume(): void {
    this.paused = null;
    this.release();
  }
}
