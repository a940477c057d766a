// GAEN protocol library: placeholder until the protocol code lands.
public enum GAEN {}
