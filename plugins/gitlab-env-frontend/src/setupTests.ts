import '@testing-library/jest-dom';

// @xyflow/react measures nodes and the viewport with browser APIs jsdom
// lacks; these stand-ins follow React Flow's testing guide.
class ResizeObserverStub {
  constructor(private readonly callback: ResizeObserverCallback) {}
  observe(target: Element) {
    this.callback(
      [{ target } as unknown as ResizeObserverEntry],
      this as unknown as ResizeObserver,
    );
  }
  unobserve() {}
  disconnect() {}
}

class DOMMatrixReadOnlyStub {
  m22: number;
  constructor(transform?: string) {
    const scale = transform?.match(/scale\(([1-9.])\)/)?.[1];
    this.m22 = scale !== undefined ? Number(scale) : 1;
  }
}

Object.assign(globalThis, {
  ResizeObserver: ResizeObserverStub,
  DOMMatrixReadOnly: DOMMatrixReadOnlyStub,
});
Object.defineProperties(HTMLElement.prototype, {
  offsetHeight: {
    get() {
      return parseFloat(this.style.height) || 800;
    },
  },
  offsetWidth: {
    get() {
      return parseFloat(this.style.width) || 1200;
    },
  },
});
(SVGElement.prototype as any).getBBox = () => ({
  x: 0,
  y: 0,
  width: 0,
  height: 0,
});
