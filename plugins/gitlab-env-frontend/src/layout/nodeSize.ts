/** The size of a node box in the graph view, which the layout and the edge routes share. */
export const NODE_WIDTH = 260;
export const NODE_HEIGHT = 64;
